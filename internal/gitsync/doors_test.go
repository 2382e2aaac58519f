package gitsync_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// TestSyncer_SyncStatus_BeforeRound: a syncer the program made and handed
// over, that has neither run nor been asked for a round, leaves the wiki's
// status saying how to sync; its first round makes it tell of sync.
func TestSyncer_SyncStatus_BeforeRound(t *testing.T) {
	ctx := context.Background()
	m := cloneOf(t, remoteWith(t, map[string]string{"plan.md": "# Plan\n"}))
	st, err := m.w.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Sync.Configured || !strings.HasPrefix(st.Sync.Message, "sync is not configured") {
		t.Errorf("before a round: %+v", st.Sync)
	}
	m.round(t)
	if st, err = m.w.Status(ctx); err != nil {
		t.Fatal(err)
	}
	if !st.Sync.Configured || st.Sync.Upstream != "origin/main" || !strings.HasPrefix(st.Sync.Message, "synced with origin/main") {
		t.Errorf("after a round: %+v", st.Sync)
	}
}

// TestSyncer_ReviewMarks: a mark made through the wiki on one machine is
// read through the wiki on the other after both synced; the store keeps
// marks where sync exchanges them.
func TestSyncer_ReviewMarks(t *testing.T) {
	ctx := context.Background()
	remote := remoteWith(t, map[string]string{"plan.md": "# Plan\n"})
	a, b := cloneOf(t, remote), cloneOf(t, remote)
	a.write(t, "one", "# One\n")
	a.round(t)
	one := head(t, a.dir)
	pat := wiki.Identity{Name: "Pat Person", Email: "pat@example.com"}
	if err := a.w.Review(ctx, wiki.ReviewRequest{Commits: []string{one}, State: wiki.Flagged, By: pat}); err != nil {
		t.Fatal(err)
	}
	a.round(t)
	b.round(t)
	marks, err := b.w.ReviewMarks(ctx, []string{one})
	if err != nil || marks[one].State != wiki.Flagged || marks[one].By != "Pat Person <pat@example.com>" {
		t.Errorf("B's marks of A's commit: %+v, %v", marks, err)
	}
}
