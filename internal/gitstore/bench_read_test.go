package gitstore

import (
	"context"
	"testing"
)

// BenchmarkSnapshot_Read reads notes of a 10,000-note wiki from the HEAD
// snapshot, with the trees cached after the first round.
func BenchmarkSnapshot_Read(b *testing.B) {
	ctx := context.Background()
	dir, picks := benchRepo(b)
	s := openStore(b, dir)
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		snap, err := s.Snapshot(ctx, head.Commit)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := snap.Read(ctx, picks[i%len(picks)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshot_Files lists all 10,000 notes with their sizes. The first
// iteration reads every size from the object store; later ones hit the
// caches.
func BenchmarkSnapshot_Files(b *testing.B) {
	ctx := context.Background()
	dir, _ := benchRepo(b)
	s := openStore(b, dir)
	head, err := s.Head(ctx)
	if err != nil {
		b.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, head.Commit)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		files, err := snap.Files(ctx, "")
		if err != nil || len(files) != benchNotes {
			b.Fatalf("%d files, %v", len(files), err)
		}
	}
}

// BenchmarkChanges diffs consecutive commits of the generated history, as
// the derived state does after every commit.
func BenchmarkChanges(b *testing.B) {
	ctx := context.Background()
	dir, _ := benchRepo(b)
	s := openStore(b, dir)
	var commits []string
	id, err := s.ResolveRevision(ctx, "HEAD")
	if err != nil {
		b.Fatal(err)
	}
	for range 50 {
		commits = append(commits, id)
		if id, err = s.ResolveRevision(ctx, id+"~1"); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; b.Loop(); i++ {
		k := i % (len(commits) - 1)
		if _, err := s.Changes(ctx, commits[k+1], commits[k]); err != nil {
			b.Fatal(err)
		}
	}
}
