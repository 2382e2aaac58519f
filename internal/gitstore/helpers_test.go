package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// openStore opens the repository at dir and closes it when the test ends.
func openStore(tb testing.TB, dir string) *Store {
	tb.Helper()
	s, err := Open(context.Background(), dir, Options{LockTimeout: 200 * time.Millisecond})
	if err != nil {
		tb.Fatalf("Open(%s): %v", dir, err)
	}
	tb.Cleanup(func() { s.Close(context.Background()) })
	return s
}

// seeded returns a checkout with one commit of files.
func seeded(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "seed", files)
	return dir
}

// rev returns `git rev-parse <rev>` in dir.
func rev(tb testing.TB, dir, r string) string {
	tb.Helper()
	return strings.TrimSpace(gittest.Git(tb, dir, "rev-parse", r))
}

var (
	testAuthor = wiki.Signature{Name: "Ada Lovelace", Email: "ada@example.com",
		When: time.Date(2024, 3, 4, 5, 6, 7, 0, time.FixedZone("", 5*3600+30*60))}
	testCommitter = wiki.Signature{Name: "wikid", Email: "wikid@example.com",
		When: time.Date(2024, 3, 4, 5, 6, 8, 0, time.FixedZone("", -7*3600))}
)

// request builds a commit request: content "" in files means delete.
func request(parent, message string, files map[string]string) wiki.CommitRequest {
	req := wiki.CommitRequest{Parent: parent, Author: testAuthor, Committer: testCommitter, Message: message}
	for p, content := range files {
		if content == "" {
			req.Changes = append(req.Changes, wiki.FileChange{Path: p, Delete: true})
		} else {
			req.Changes = append(req.Changes, wiki.FileChange{Path: p, Content: []byte(content)})
		}
	}
	return req
}

// mustCommit commits through the store and fails the test on error. It
// returns once what the commit left to remove is gone.
func mustCommit(tb testing.TB, s *Store, req wiki.CommitRequest) string {
	tb.Helper()
	id, err := s.Commit(context.Background(), req)
	if err != nil {
		tb.Fatalf("Commit: %v", err)
	}
	s.retiring.Wait()
	return id
}

// checkCheckout checks a checkout the way a user would: fsck clean, nothing
// to commit, nothing staged, the index's cache tree in agreement with HEAD.
func checkCheckout(tb testing.TB, dir string) {
	tb.Helper()
	gittest.Fsck(tb, dir)
	if st := gittest.Status(tb, dir); st != "" {
		tb.Errorf("git status --porcelain:\n%s", st)
	}
	if d := gittest.Git(tb, dir, "diff", "--cached", "--name-status"); d != "" {
		tb.Errorf("git diff --cached:\n%s", d)
	}
	if d := gittest.Git(tb, dir, "diff-files", "--name-status"); d != "" {
		tb.Errorf("git diff-files (stat data of the index):\n%s", d)
	}
	if tree, head := rev(tb, dir, "HEAD^{tree}"), strings.TrimSpace(gittest.Git(tb, dir, "write-tree")); tree != head {
		tb.Errorf("git write-tree = %s, HEAD^{tree} = %s", head, tree)
	}
}

// checkDisk fails unless every file (content "" = absent) is on disk with
// that content.
func checkDisk(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for p, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, p))
		switch {
		case want == "" && !errors.Is(err, os.ErrNotExist):
			tb.Errorf("%s still exists (%v)", p, err)
		case want != "" && err != nil:
			tb.Errorf("%s: %v", p, err)
		case want != "" && string(got) != want:
			tb.Errorf("%s = %q, want %q", p, got, want)
		}
	}
}

// wantCode fails unless err has the code.
func wantCode(tb testing.TB, err error, code wiki.Code) {
	tb.Helper()
	if got := wiki.CodeOf(err); got != code {
		tb.Fatalf("error %v: code %s, want %s", err, got, code)
	}
}

// hash parses a hex id; "" is the zero id.
func hash(s string) plumbing.Hash {
	if s == "" {
		return plumbing.ZeroHash
	}
	return plumbing.NewHash(s)
}
