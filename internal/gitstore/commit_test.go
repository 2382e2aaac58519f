package gitstore

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// repoKind is a kind of repository Commit must write to.
type repoKind struct {
	name string
	// setup creates the repository with the files committed (none for an
	// unborn branch) and returns the path to open and the repository to
	// check with git.
	setup func(t *testing.T, files map[string]string) (open, repo string)
	bare  bool
}

var seedFiles = map[string]string{"a.md": "alpha\n", "keep/k.md": "keep\n", "tool.md": "#!/bin/sh\necho tool\n"}

func repoKinds() []repoKind {
	checkout := func(t *testing.T, files map[string]string) string {
		dir := gittest.Init(t)
		gittest.WriteFiles(t, dir, files)
		if err := os.Chmod(filepath.Join(dir, "tool.md"), 0o755); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "add", "-A")
		gittest.Git(t, dir, "commit", "-q", "-m", "seed")
		return dir
	}
	return []repoKind{
		{name: "checkout", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			return d, d
		}},
		{name: "opened from a subdirectory", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			return filepath.Join(d, "keep"), d
		}},
		{name: "unborn checkout", setup: func(t *testing.T, _ map[string]string) (string, string) {
			d := gittest.Init(t)
			return d, d
		}},
		{name: "packed refs and objects after gc", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			gittest.Git(t, d, "gc", "-q")
			gittest.Git(t, d, "pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(d, ".git", "refs", "heads", "main")); err == nil {
				t.Fatal("refs/heads/main is still loose")
			}
			return d, d
		}},
		{name: "index version 4", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			gittest.Git(t, d, "update-index", "--index-version", "4")
			return d, d
		}},
		{name: "index version 3 with skip-worktree", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			gittest.Git(t, d, "update-index", "--skip-worktree", "keep/k.md")
			return d, d
		}},
		{name: "untracked cache and an untracked file", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			gittest.Git(t, d, "config", "core.untrackedCache", "true")
			gittest.WriteFiles(t, d, map[string]string{".git/info/exclude": "scratch.txt\n", "keep/scratch.txt": "mine\n"})
			gittest.Git(t, d, "update-index", "--untracked-cache")
			gittest.Status(t, d)
			if b, _ := os.ReadFile(filepath.Join(d, ".git", "index")); !strings.Contains(string(b), "UNTR") {
				t.Fatal("the index has no untracked cache")
			}
			return d, d
		}},
		{name: "linked worktree", setup: func(t *testing.T, files map[string]string) (string, string) {
			d := checkout(t, files)
			wt := filepath.Join(t.TempDir(), "wt")
			gittest.Git(t, d, "worktree", "add", "-q", "-b", "side", wt)
			return wt, wt
		}},
		{name: "bare", bare: true, setup: func(t *testing.T, files map[string]string) (string, string) {
			src := checkout(t, files)
			d := t.TempDir()
			gittest.Git(t, d, "clone", "-q", "--bare", src, ".")
			return d, d
		}},
		{name: "bare unborn", bare: true, setup: func(t *testing.T, _ map[string]string) (string, string) {
			d := gittest.InitBare(t)
			return d, d
		}},
	}
}

// step is one commit of TestStore_Commit: files with content "" are deleted.
type step struct {
	message string
	files   map[string]string
}

var steps = []step{
	{"create: notes/new\n\nWiki-Tool: write_note\n", map[string]string{
		"notes/new.md": "# New\n", "a.md": "alpha 2\n", "x/y/z/deep.md": "deep\n", "tool.md": "#!/bin/sh\necho tool 2\n"}},
	{"move: a -> b", map[string]string{"a.md": "", "b.md": "alpha 2\n"}},
	{"delete: x/y/z/deep", map[string]string{"x/y/z/deep.md": ""}},
	{"batch: 3 notes\n\nbody line\n\nWiki-Base: x\n", map[string]string{
		"notes/new.md": "# New\n\nmore\n", "b.md": "alpha 3\n", "keep/k2.md": "k2\n", "notes-a.md": "sorts before notes/\n"}},
	{"delete: everything in notes", map[string]string{"notes/new.md": ""}},
}

func TestStore_Commit(t *testing.T) {
	ctx := context.Background()
	for _, kind := range repoKinds() {
		t.Run(kind.name, func(t *testing.T) {
			open, repo := kind.setup(t, seedFiles)
			s := openStore(t, open)
			model := map[string]string{}
			head, err := s.Head(ctx)
			if err != nil {
				t.Fatal(err)
			}
			seeded := head.Commit != ""
			if seeded {
				maps.Copy(model, seedFiles)
			}
			for i, st := range steps {
				req := request(head.Commit, st.message, st.files)
				id, err := s.Commit(ctx, req)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				for p, c := range st.files {
					if c == "" {
						delete(model, p)
					} else {
						model[p] = c
					}
				}
				verifyCommit(t, repo, head, id, req, model, seeded)
				if !kind.bare {
					checkCheckout(t, repo)
					checkDisk(t, repo, st.files)
				}
				if head, err = s.Head(ctx); err != nil || head.Commit != id {
					t.Fatalf("Head() = %+v, %v; want %s", head, err, id)
				}
			}
			// Step 1 renamed a.md to b.md; git sees it as a rename.
			renamed := strings.TrimSpace(gittest.Git(t, repo, "diff", "-M", "--name-status", "HEAD~4", "HEAD~3"))
			if renamed != "R100\ta.md\tb.md" {
				t.Errorf("git diff -M: %q", renamed)
			}
			if n := len(strings.Fields(gittest.Git(t, repo, "log", "--follow", "--format=%H", "--", "b.md"))); n < 3 {
				t.Errorf("git log --follow b.md shows %d commits, want its history through a.md", n)
			}
			if !kind.bare {
				fi, err := os.Stat(filepath.Join(repo, "x"))
				if err == nil {
					t.Errorf("folder x left behind after its last file was deleted: %v", fi.Mode())
				}
				if _, err := os.Stat(filepath.Join(repo, "notes")); err == nil {
					t.Errorf("folder notes left behind")
				}
			}
		})
	}
}

// verifyCommit checks with git that commit id is the one new commit on the
// branch, byte for byte as requested, with the files of model, and that the
// reflogs record the move.
// seeded says whether the history started with seedFiles.
func verifyCommit(t *testing.T, repo string, prev wiki.Head, id string, req wiki.CommitRequest, model map[string]string, seeded bool) {
	t.Helper()
	gittest.Fsck(t, repo)
	if got := rev(t, repo, prev.Branch); got != id {
		t.Fatalf("%s = %s, Commit returned %s", prev.Branch, got, id)
	}
	if got := rev(t, repo, "HEAD"); got != id {
		t.Fatalf("HEAD = %s, want %s", got, id)
	}
	var want strings.Builder
	fmt.Fprintf(&want, "tree %s\n", rev(t, repo, id+"^{tree}"))
	if prev.Commit != "" {
		fmt.Fprintf(&want, "parent %s\n", prev.Commit)
	}
	msg := req.Message
	if !strings.HasSuffix(msg, "\n") {
		msg += "\n"
	}
	fmt.Fprintf(&want, "author Ada Lovelace <ada@example.com> %d +0530\ncommitter wikid <wikid@example.com> %d -0700\n\n%s",
		testAuthor.When.Unix(), testCommitter.When.Unix(), msg)
	if got := gittest.Git(t, repo, "cat-file", "commit", id); got != want.String() {
		t.Errorf("commit object:\n%s\nwant:\n%s", got, want.String())
	}
	// The tree holds exactly the model's files, git's fsck checked the order.
	names := strings.Fields(gittest.Git(t, repo, "ls-tree", "-r", "--name-only", id))
	if want := slices.Sorted(maps.Keys(model)); !slices.Equal(names, want) {
		t.Errorf("tree has %v, want %v", names, want)
	}
	for p, content := range model {
		if got := gittest.Git(t, repo, "cat-file", "blob", id+":"+p); got != content {
			t.Errorf("%s = %q, want %q", p, got, content)
		}
	}
	// tool.md was executable in the seed; a new file is not.
	if mode := strings.Fields(gittest.Git(t, repo, "ls-tree", id, "tool.md")); len(mode) > 0 {
		if want := map[bool]string{true: "100755", false: "100644"}[seeded]; mode[0] != want {
			t.Errorf("tool.md has mode %s, want %s", mode[0], want)
		}
	}
	// The reflogs: git's own format, read back by git.
	subject, _, _ := strings.Cut(req.Message, "\n")
	action := "commit: "
	if prev.Commit == "" {
		action = "commit (initial): "
	}
	old := prev.Commit
	if old == "" {
		old = strings.Repeat("0", 40)
	}
	line := fmt.Sprintf("%s %s wikid <wikid@example.com> %d -0700\t%s%s\n", old, id, testCommitter.When.Unix(), action, subject)
	if prev.Bare {
		if _, err := os.Stat(filepath.Join(repo, "logs")); err == nil {
			t.Errorf("a reflog was created in a bare repository, where git creates none")
		}
	}
	for _, ref := range []string{prev.Branch, "HEAD"} {
		if prev.Bare {
			break
		}
		path := strings.TrimSpace(gittest.Git(t, repo, "rev-parse", "--git-path", "logs/"+ref))
		if !filepath.IsAbs(path) {
			path = filepath.Join(repo, path)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("reflog of %s: %v", ref, err)
			continue
		}
		lines := strings.SplitAfter(string(b), "\n")
		if last := lines[len(lines)-2]; last != line {
			t.Errorf("reflog of %s ends with\n%q\nwant\n%q", ref, last, line)
		}
		got := gittest.Git(t, repo, "reflog", "show", "-1", "--format=%H %gs", ref)
		if got != id+" "+action+subject+"\n" {
			t.Errorf("git reflog %s: %q", ref, got)
		}
	}
	n, _ := strconv.Atoi(strings.TrimSpace(gittest.Git(t, repo, "rev-list", "--count", id)))
	if prev.Commit != "" {
		m, _ := strconv.Atoi(strings.TrimSpace(gittest.Git(t, repo, "rev-list", "--count", prev.Commit)))
		if n != m+1 {
			t.Errorf("%d commits after, %d before", n, m)
		}
	} else if n != 1 {
		t.Errorf("%d commits after the first", n)
	}
}

// TestStore_Commit_RemembersBlobs checks that the content of a blob a
// commit wrote is read back without its object: the next change of the
// note starts from it. Another store reads the object.
func TestStore_Commit_RemembersBlobs(t *testing.T) {
	ctx := context.Background()
	dir := seeded(t, map[string]string{"a.md": "a\n"})
	s := openStore(t, dir)
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "a, again\n"}))
	blob := rev(t, dir, "HEAD:a.md")
	gittest.RemoveObjects(t, dir, blob)
	if b, err := s.ReadBlob(ctx, blob); err != nil || string(b) != "a, again\n" {
		t.Errorf("the blob just written: %q, %v", b, err)
	}
	if _, err := openStore(t, dir).ReadBlob(ctx, blob); !errors.Is(err, wiki.ErrNotFound) {
		t.Errorf("another store, without the object: %v, want ErrNotFound", err)
	}
}
