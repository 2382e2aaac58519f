package tempfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite writes a file for a transaction and one for none: each is a
// new hidden file in the folder, named so that recovery finds the
// transaction's, with the content written; a folder that is missing gives
// an error and leaves nothing.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	for _, tag := range []string{"t1", ""} {
		name, err := Write(dir, tag, []byte("alpha\n"), 0o600, tag != "")
		if err != nil {
			t.Fatal(err)
		}
		prefix := ".wikid-"
		if tag != "" {
			prefix += tag + "-"
		}
		base := filepath.Base(name)
		if filepath.Dir(name) != dir || !strings.HasPrefix(base, prefix) || !strings.HasSuffix(base, ".tmp") || len(base) != len(prefix)+16+4 {
			t.Errorf("Write(%q) named the file %s", tag, name)
		}
		if b, err := os.ReadFile(name); err != nil || string(b) != "alpha\n" {
			t.Errorf("the file holds %q, %v", b, err)
		}
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("the file's mode: %v, %v", fi, err)
		}
	}
	if name, err := Write(filepath.Join(dir, "missing"), "t1", []byte("x"), 0o666, false); err == nil {
		t.Errorf("Write into a missing folder made %s", name)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in the folder, want 2", len(entries))
	}
}
