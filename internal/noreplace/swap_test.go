package noreplace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestSwap(t *testing.T) {
	for _, tc := range []struct {
		name string
		swap func(src, dst, aside string) error
	}{{"Swap", Swap}, {"SwapByLink", SwapByLink}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			src, dst, aside := filepath.Join(dir, "src"), filepath.Join(dir, "dst"), filepath.Join(dir, "aside")
			for name, content := range map[string]string{src: "new", dst: "old"} {
				if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.OpenFile(dst, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := tc.swap(src, dst, aside); err != nil {
				t.Fatal(err)
			}
			// A descriptor of the old file writes to the file now aside.
			if _, err := f.WriteString(", late"); err != nil {
				t.Fatal(err)
			}
			for name, want := range map[string]string{dst: "new", aside: "old, late"} {
				if b, err := os.ReadFile(name); err != nil || string(b) != want {
					t.Errorf("%s = %q, %v; want %q", filepath.Base(name), b, err, want)
				}
			}
			if _, err := os.Lstat(src); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("src is still there: %v", err)
			}
			if err := tc.swap(aside, filepath.Join(dir, "missing"), filepath.Join(dir, "x")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("swap into a missing file: %v, want fs.ErrNotExist", err)
			}
			if _, err := os.Lstat(aside); err != nil {
				t.Errorf("a failed swap took its source: %v", err)
			}
		})
	}
}
