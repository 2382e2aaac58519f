package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

func TestOpen(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		// setup returns the path to open, the git dir Dir() lives in, and
		// the repository to ask git about.
		setup    func(t *testing.T) (open, gitDir, repo string)
		detached bool
		unborn   bool
		bare     bool
	}{
		{name: "checkout", setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"a.md": "a\n"})
			return d, filepath.Join(d, ".git"), d
		}},
		{name: "subdirectory", setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"x/y/a.md": "a\n"})
			return filepath.Join(d, "x", "y"), filepath.Join(d, ".git"), d
		}},
		{name: "file inside", setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"x/a.md": "a\n"})
			return filepath.Join(d, "x", "a.md"), filepath.Join(d, ".git"), d
		}},
		{name: "the .git folder", setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"a.md": "a\n"})
			return filepath.Join(d, ".git"), filepath.Join(d, ".git"), d
		}},
		{name: "unborn", unborn: true, setup: func(t *testing.T) (string, string, string) {
			d := gittest.Init(t)
			return d, filepath.Join(d, ".git"), d
		}},
		{name: "bare", bare: true, setup: func(t *testing.T) (string, string, string) {
			src := seeded(t, map[string]string{"a.md": "a\n"})
			d := t.TempDir()
			gittest.Git(t, d, "clone", "-q", "--bare", src, ".")
			return d, d, d
		}},
		{name: "bare unborn", bare: true, unborn: true, setup: func(t *testing.T) (string, string, string) {
			d := gittest.InitBare(t)
			return d, d, d
		}},
		{name: "detached", detached: true, setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"a.md": "a\n"})
			gittest.Git(t, d, "checkout", "-q", "--detach")
			return d, filepath.Join(d, ".git"), d
		}},
		{name: "linked worktree", setup: func(t *testing.T) (string, string, string) {
			d := seeded(t, map[string]string{"a.md": "a\n"})
			wt := filepath.Join(t.TempDir(), "wt")
			gittest.Git(t, d, "worktree", "add", "-q", "-b", "side", wt)
			return wt, filepath.Join(d, ".git", "worktrees", "wt"), wt
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			open, gitDir, repo := tc.setup(t)
			s := openStore(t, open)
			if got := s.Dir(); got != filepath.Join(gitDir, "wikid") {
				t.Errorf("Dir() = %s, want %s", got, filepath.Join(gitDir, "wikid"))
			}
			h, err := s.Head(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want := wiki.Head{Bare: tc.bare, Detached: tc.detached}
			if !tc.unborn {
				want.Commit = rev(t, repo, "HEAD")
			}
			if !tc.detached {
				want.Branch = gittest.Git(t, repo, "symbolic-ref", "HEAD")
				want.Branch = want.Branch[:len(want.Branch)-1]
			}
			if h != want {
				t.Errorf("Head() = %+v, want %+v", h, want)
			}
		})
	}
}

func TestOpen_Errors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		setup func(t *testing.T) string
	}{
		{"not a repository", func(t *testing.T) string { return t.TempDir() }},
		{"missing path", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }},
		{"sha256", func(t *testing.T) string {
			d := t.TempDir()
			gittest.Git(t, d, "init", "-q", "--object-format=sha256")
			return d
		}},
		{"broken .git file", func(t *testing.T) string {
			d := t.TempDir()
			if err := os.WriteFile(filepath.Join(d, ".git"), []byte("gitdir: ./missing\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return d
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := Open(ctx, tc.setup(t), Options{}); err == nil {
				s.Close(ctx)
				t.Fatal("Open succeeded")
			} else {
				t.Log(err)
			}
		})
	}
}

func TestStore_Close(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, seeded(t, map[string]string{"a.md": "a\n"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Head(ctx); err != ErrClosed {
		t.Errorf("Head after Close: %v, want ErrClosed", err)
	}
}
