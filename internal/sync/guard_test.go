package sync_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	wsync "github.com/wikid/wikid/internal/sync"
)

func TestGuard_Check(t *testing.T) {
	ctx := context.Background()
	setup := func(t *testing.T) (*machine, *wsync.Guard) {
		remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n", "other.md": "# Other\n"})
		m := cloneOf(t, remote)
		return m, wsync.NewGuard(m.w, m.dir, nil)
	}

	t.Run("a commit from a stale index drops a new note: it comes back", func(t *testing.T) {
		m, g := setup(t)
		m.write(t, "inbox/new", "# New\n\nAcknowledged.\n")
		w := head(t, m.dir)
		// git pull read the index before wikid's commit; the person's
		// next commit records that index.
		gittest.Git(t, m.dir, "read-tree", "HEAD~1")
		gittest.WriteFiles(t, m.dir, map[string]string{"other.md": "# Other\n\nMine.\n"})
		gittest.Git(t, m.dir, "add", "other.md")
		gittest.Git(t, m.dir, "commit", "-q", "-m", "my notes")
		c := head(t, m.dir)
		restored, err := g.Check(ctx, w, c)
		if err != nil || !slices.Equal(restored, []string{"inbox/new.md"}) {
			t.Fatalf("restored %v, %v", restored, err)
		}
		if got := show(t, m.dir, "HEAD", "inbox/new.md"); got != "# New\n\nAcknowledged.\n" {
			t.Errorf("HEAD has %q", got)
		}
		if got := show(t, m.dir, "HEAD", "other.md"); got != "# Other\n\nMine.\n" {
			t.Errorf("the person's change is gone: %q", got)
		}
		msg := gittest.Git(t, m.dir, "log", "-1", "--format=%B")
		if !strings.HasPrefix(msg, "restore: changes dropped by "+c[:12]) || !strings.Contains(msg, "Wiki-Tool: guard") {
			t.Errorf("message:\n%s", msg)
		}
		gittest.Fsck(t, m.dir)

		// Deleting it again, even without a word, is respected: it undoes
		// the guard's commit, not the assistant's.
		restore := head(t, m.dir)
		gittest.Git(t, m.dir, "rm", "-q", "inbox/new.md")
		gittest.Git(t, m.dir, "commit", "-q", "-m", "tidy up")
		if restored, err := g.Check(ctx, restore, head(t, m.dir)); err != nil || len(restored) != 0 {
			t.Errorf("restored %v, %v", restored, err)
		}
	})

	t.Run("a deliberate delete that names the note is respected", func(t *testing.T) {
		m, g := setup(t)
		m.write(t, "inbox/draft", "# Draft\n")
		w := head(t, m.dir)
		gittest.Git(t, m.dir, "rm", "-q", "inbox/draft.md")
		gittest.Git(t, m.dir, "commit", "-q", "-m", "remove the draft note")
		if restored, err := g.Check(ctx, w, head(t, m.dir)); err != nil || len(restored) != 0 {
			t.Errorf("restored %v, %v", restored, err)
		}
	})

	t.Run("a deliberate edit is respected", func(t *testing.T) {
		m, g := setup(t)
		m.write(t, "plan", "# Plan\n\nBy the assistant.\n")
		w := head(t, m.dir)
		gittest.Commit(t, m.dir, "tweak", map[string]string{"plan.md": "# Plan\n\nBy me.\n"})
		if restored, err := g.Check(ctx, w, head(t, m.dir)); err != nil || len(restored) != 0 {
			t.Errorf("restored %v, %v", restored, err)
		}
	})

	t.Run("a merge that lacks one side's new note: it comes back", func(t *testing.T) {
		m, g := setup(t)
		before := head(t, m.dir)
		m.write(t, "inbox/kept", "# Kept\n")
		w := head(t, m.dir)
		// The other parent changes other.md only; the merge's tree is the
		// other parent's, as an index read before wikid's commit gives.
		gittest.Git(t, m.dir, "checkout", "-q", "-b", "side", before)
		gittest.Commit(t, m.dir, "side change", map[string]string{"other.md": "# Other\n\nSide.\n"})
		side := head(t, m.dir)
		gittest.Git(t, m.dir, "checkout", "-q", "main")
		tree := strings.TrimSpace(gittest.Git(t, m.dir, "rev-parse", side+"^{tree}"))
		merge := strings.TrimSpace(gittest.Git(t, m.dir, "commit-tree", tree, "-p", w, "-p", side, "-m", "Merge branch 'side'"))
		gittest.Git(t, m.dir, "reset", "-q", "--hard", merge)
		restored, err := g.Check(ctx, w, merge)
		if err != nil || !slices.Equal(restored, []string{"inbox/kept.md"}) {
			t.Fatalf("restored %v, %v", restored, err)
		}
		if got := show(t, m.dir, "HEAD", "inbox/kept.md"); got != "# Kept\n" {
			t.Errorf("HEAD has %q", got)
		}
		if len(g.Restored()) != 1 {
			t.Errorf("Restored %v", g.Restored())
		}
	})
}
