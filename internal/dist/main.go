// Command dist packs the release binaries that make dist builds: each
// folder of the dist folder (wikid_<version>_<os>_<arch>, holding the
// binary) becomes an archive of that name, a .zip for Windows and a
// .tar.gz elsewhere, with the files named by -add beside the binary; the
// folders are removed, and SHA256SUMS lists every archive's checksum, as
// sha256sum -c reads it. Archives are the same bytes for the same inputs:
// every entry has the time -mtime (seconds since 1970) and a fixed owner.
//
//	go run ./internal/dist -mtime 1700000000 -add README.md -add model.txt=MODEL.txt dist
package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// addList is the -add flag: files to put in every archive, as
// "path" or "path=name in the archive".
type addList []string

func (a *addList) String() string     { return strings.Join(*a, ",") }
func (a *addList) Set(s string) error { *a = append(*a, s); return nil }

func main() {
	var add addList
	flag.Var(&add, "add", "a file to put beside the binary in every archive: PATH or PATH=NAME (repeatable)")
	mtime := flag.Int64("mtime", 0, "the time of every entry, in seconds since 1970 (the commit's time)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: dist [-mtime SECONDS] [-add PATH[=NAME]]... DIR")
		os.Exit(2)
	}
	if err := pack(flag.Arg(0), add, time.Unix(*mtime, 0).UTC()); err != nil {
		fmt.Fprintln(os.Stderr, "dist:", err)
		os.Exit(1)
	}
}

// entry is one file of an archive.
type entry struct {
	src, name string
	mode      os.FileMode
}

func pack(dir string, add []string, mtime time.Time) error {
	dirs, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var sums []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		base := filepath.Join(dir, d.Name())
		bins, err := os.ReadDir(base)
		if err != nil {
			return err
		}
		var entries []entry
		for _, b := range bins {
			entries = append(entries, entry{filepath.Join(base, b.Name()), b.Name(), 0o755})
		}
		for _, a := range add {
			src, name, ok := strings.Cut(a, "=")
			if !ok {
				name = filepath.Base(src)
			}
			entries = append(entries, entry{src, name, 0o644})
		}
		slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
		out := base + ".tar.gz"
		write := writeTarGz
		if strings.Contains(d.Name(), "_windows_") {
			out, write = base+".zip", writeZip
		}
		if err := writeFile(out, func(w io.Writer) error { return write(w, d.Name(), entries, mtime) }); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		sum, err := fileSHA256(out)
		if err != nil {
			return err
		}
		sums = append(sums, sum+"  "+filepath.Base(out)+"\n")
		if err := os.RemoveAll(base); err != nil {
			return err
		}
	}
	slices.SortFunc(sums, func(a, b string) int { return strings.Compare(a[66:], b[66:]) })
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Join(sums, "")), 0o644)
}

// writeFile creates name and writes it with write.
func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeTarGz writes entries, in the folder root, as a gzipped tar.
func writeTarGz(w io.Writer, root string, entries []entry, mtime time.Time) error {
	zw, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: root + "/" + e.name, Mode: int64(e.mode), Size: int64(len(data)),
			ModTime: mtime, Typeflag: tar.TypeReg, Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := tw.Write(data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return zw.Close()
}

// writeZip writes entries, in the folder root, as a zip.
func writeZip(w io.Writer, root string, entries []entry, mtime time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		data, err := os.ReadFile(e.src)
		if err != nil {
			return err
		}
		hdr := &zip.FileHeader{Name: root + "/" + e.name, Method: zip.Deflate, Modified: mtime}
		hdr.SetMode(e.mode)
		f, err := zw.CreateHeader(hdr)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// fileSHA256 returns the hex SHA-256 checksum of the file name.
func fileSHA256(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
