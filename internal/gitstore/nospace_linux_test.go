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
// the same disk may: the ref update fails with NO_SPACE, and the rollback,
// which renames the old file and the old index back instead of writing
// them again, puts the checkout back as it was. The branch does not move
// and the next commit, once there is space, succeeds.
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
	if strings.Contains(err.Error(), "could not be put back") {
		t.Errorf("the rollback needed space: %v", err)
	}
	if err := filler.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if got := rev(t, dir, "HEAD"); got != head {
		t.Errorf("HEAD = %s, want %s", got, head)
	}
	checkCheckout(t, dir)
	checkDisk(t, dir, map[string]string{"a.md": note('a')})
	if _, err := s.Commit(ctx, request(head, "edit", map[string]string{"a.md": note('b')})); err != nil {
		t.Fatalf("Commit once there is space: %v", err)
	}
}
