package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPack(t *testing.T) {
	dir := t.TempDir()
	for name, bin := range map[string]string{"wikid_v1_linux_amd64": "wikid", "wikid_v1_windows_arm64": "wikid.exe"} {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, bin), []byte("binary "+name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	notice := filepath.Join(t.TempDir(), "builtin.txt")
	if err := os.WriteFile(notice, []byte("model notice\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mtime := time.Unix(1_700_000_000, 0).UTC()
	if err := pack(dir, []string{notice + "=MODEL.txt"}, mtime); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"SHA256SUMS", "wikid_v1_linux_amd64.tar.gz", "wikid_v1_windows_arm64.zip"}; !slices.Equal(names, want) {
		t.Fatalf("dist holds %v, want %v", names, want)
	}
	sums, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	for _, name := range names[1:] {
		sum, err := fileSHA256(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(sums), sum+"  "+name+"\n") {
			t.Errorf("SHA256SUMS lacks %s %s:\n%s", sum, name, sums)
		}
	}

	f, err := os.Open(filepath.Join(dir, names[1]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var got []string
	for {
		h, err := tr.Next()
		if err != nil {
			break
		}
		if !h.ModTime.Equal(mtime) {
			t.Errorf("%s: time %v, want %v", h.Name, h.ModTime, mtime)
		}
		got = append(got, h.Name+" "+os.FileMode(h.Mode).String())
	}
	if want := []string{"wikid_v1_linux_amd64/MODEL.txt -rw-r--r--", "wikid_v1_linux_amd64/wikid -rwxr-xr-x"}; !slices.Equal(got, want) {
		t.Errorf("tar.gz holds %v, want %v", got, want)
	}

	zf, err := zip.OpenReader(filepath.Join(dir, names[2]))
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	got = nil
	for _, f := range zf.File {
		got = append(got, f.Name)
	}
	if want := []string{"wikid_v1_windows_arm64/MODEL.txt", "wikid_v1_windows_arm64/wikid.exe"}; !slices.Equal(got, want) {
		t.Errorf("zip holds %v, want %v", got, want)
	}
}
