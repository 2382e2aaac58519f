package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestStore_Commit_DiskFillsBeforeTheRef fills the disk after the checkout
// was updated and before the branch moves, as another program writing to
// the same disk may: the ref update fails with NO_SPACE, and so does the
// rollback of a replaced file, which needs space to write the old content
// again. The branch does not move, the objects are sound, and the error
// says that the checkout was left changed: putting a checkout back without
// space (from hard links to the old files, say) is not done yet.
func TestStore_Commit_DiskFillsBeforeTheRef(t *testing.T) {
	ctx := context.Background()
	disk := gittest.TinyDisk(t, 4<<20)
	dir := filepath.Join(disk, "wiki")
	gittest.Git(t, disk, "init", "-q", "-b", "main", "--template=", dir)
	note := func(c byte) string {
		var b strings.Builder
		for i := 0; b.Len() < 12<<10; i++ {
			fmt.Fprintf(&b, "%c%x\n", c, i*7919)
		}
		return b.String()
	}
	head := gittest.Commit(t, dir, "seed", map[string]string{"a.md": note('a')})
	s := openStore(t, dir)
	filler, err := os.Create(filepath.Join(disk, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer filler.Close()
	testHookBeforeMoveRef = func() {
		page := make([]byte, os.Getpagesize())
		for {
			if _, err := filler.Write(page); err != nil {
				return
			}
		}
	}
	t.Cleanup(func() { testHookBeforeMoveRef = nil })
	_, err = s.Commit(ctx, request(head, "edit", map[string]string{"a.md": note('b')}))
	testHookBeforeMoveRef = nil
	if wiki.CodeOf(err) != wiki.CodeNoSpace || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Commit error = %v, want NO_SPACE", err)
	}
	var e *wiki.Error
	errors.As(err, &e)
	if !strings.HasSuffix(e.Message, "; nothing was committed, but the checkout could not be put back as it was") ||
		!strings.HasSuffix(e.Hint, "; then put the files that `git status` shows back as HEAD has them, and retry") {
		t.Errorf("message %q, hint %q", e.Message, e.Hint)
	}
	if err := filler.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if got := rev(t, dir, "HEAD"); got != head {
		t.Errorf("HEAD = %s, want %s", got, head)
	}
	gittest.Fsck(t, dir)
	// What is left: the change, staged. git puts it back.
	if st := gittest.Status(t, dir); st != "M  a.md\n" {
		t.Errorf("git status = %q", st)
	}
	gittest.Git(t, dir, "restore", "--staged", "--worktree", "a.md")
	if _, err := s.Commit(ctx, request(head, "edit", map[string]string{"a.md": note('b')})); err != nil {
		t.Fatalf("Commit after the checkout was put back: %v", err)
	}
}
