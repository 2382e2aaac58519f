package gitdir

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestDiscover(t *testing.T) {
	checkout := gittest.Init(t)
	gittest.Commit(t, checkout, "seed", map[string]string{"x/a.md": "a\n"})
	dotgit := filepath.Join(checkout, ".git")
	bare := gittest.InitBare(t)
	linked := filepath.Join(t.TempDir(), "wt")
	gittest.Git(t, checkout, "worktree", "add", "-q", "-b", "side", linked)
	for _, tc := range []struct {
		name, path string
		want       Layout
	}{
		{"checkout", checkout, Layout{GitDir: dotgit, CommonDir: dotgit, WorkTree: checkout}},
		{"subfolder", filepath.Join(checkout, "x"), Layout{GitDir: dotgit, CommonDir: dotgit, WorkTree: checkout}},
		{"file inside", filepath.Join(checkout, "x", "a.md"), Layout{GitDir: dotgit, CommonDir: dotgit, WorkTree: checkout}},
		{"the .git folder", dotgit, Layout{GitDir: dotgit, CommonDir: dotgit, WorkTree: checkout}},
		{"bare", bare, Layout{GitDir: bare, CommonDir: bare}},
		{"linked worktree", linked, Layout{GitDir: filepath.Join(dotgit, "worktrees", "wt"), CommonDir: dotgit, WorkTree: linked}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Discover(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Discover(%s) = %+v, want %+v", tc.path, got, tc.want)
			}
		})
	}
	t.Run("none", func(t *testing.T) {
		if _, err := Discover(t.TempDir()); !errors.Is(err, ErrNoRepository) {
			t.Errorf("error %v, want ErrNoRepository", err)
		}
	})
	t.Run("broken .git file", func(t *testing.T) {
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, ".git"), []byte("gitdir: ./missing\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Discover(d); err == nil || errors.Is(err, ErrNoRepository) {
			t.Errorf("error %v, want one naming the .git file", err)
		}
	})
}

func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		name   string
		init   []string
		config map[string]string
		want   Config
		ok     bool
	}{
		{"checkout", nil, nil, Config{LogAll: true, FileMode: true}, true},
		{"bare", []string{"--bare"}, nil, Config{Bare: true, FileMode: true}, true},
		{"options", nil, map[string]string{"core.logAllRefUpdates": "false", "core.fileMode": "false", "core.worktree": "../wt"},
			Config{WorkTree: "wt", FileMode: false}, true},
		{"sha256", []string{"--object-format=sha256"}, nil, Config{}, false},
		{"reftable", nil, map[string]string{"extensions.refStorage": "reftable", "core.repositoryFormatVersion": "1"}, Config{}, false},
		{"format version 2", nil, map[string]string{"core.repositoryFormatVersion": "2"}, Config{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gittest.Git(t, dir, append([]string{"init", "-q"}, tc.init...)...)
			l, err := Discover(dir)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.config {
				gittest.Git(t, t.TempDir(), "config", "--file", filepath.Join(l.GitDir, "config"), k, v)
			}
			got, err := ReadConfig(l)
			if (err == nil) != tc.ok {
				t.Fatalf("ReadConfig: %v", err)
			}
			if tc.want.WorkTree != "" {
				tc.want.WorkTree = filepath.Join(dir, tc.want.WorkTree)
			}
			if err == nil && got != tc.want {
				t.Errorf("ReadConfig = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestUnwritable(t *testing.T) {
	l, err := Discover(gittest.Init(t))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := Unwritable(l); d != "" || err != nil {
		t.Errorf("Unwritable = %q, %v; want a writable repository", d, err)
	}
}
