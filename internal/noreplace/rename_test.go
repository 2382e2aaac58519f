package noreplace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRename(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rename func(old, new string) error
	}{{"Rename", Rename}, {"linkRename", linkRename}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			old, new := filepath.Join(dir, "old"), filepath.Join(dir, "new")
			write := func(name, content string) {
				if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(old, "old")
			write(new, "new")
			if err := tc.rename(old, new); !errors.Is(err, fs.ErrExist) {
				t.Errorf("rename over a file: %v, want fs.ErrExist", err)
			}
			for name, want := range map[string]string{old: "old", new: "new"} {
				if b, err := os.ReadFile(name); err != nil || string(b) != want {
					t.Errorf("%s = %q, %v; want %q", name, b, err, want)
				}
			}
			if err := os.Remove(new); err != nil {
				t.Fatal(err)
			}
			if err := tc.rename(old, new); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(old); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the old name is still there: %v", err)
			}
			if b, err := os.ReadFile(new); err != nil || string(b) != "old" {
				t.Errorf("new = %q, %v", b, err)
			}
		})
	}
}
