package noreplace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestExchange(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Exchange(a, b)
	if errors.Is(err, errors.ErrUnsupported) {
		if runtime.GOOS == "linux" || runtime.GOOS == "darwin" {
			t.Logf("this file system cannot swap files: %v", err)
		}
		t.Skip("no atomic exchange here")
	}
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{a: "b", b: "a"} {
		if got, err := os.ReadFile(name); err != nil || string(got) != want {
			t.Errorf("%s = %q, %v; want %q", filepath.Base(name), got, err, want)
		}
	}
	if err := Exchange(a, filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("exchange with a missing file: %v, want fs.ErrNotExist", err)
	}
	if got, err := os.ReadFile(a); err != nil || string(got) != "b" {
		t.Errorf("a failed exchange changed a: %q, %v", got, err)
	}
}
