package gitstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestStore_MissingObjects opens blobless partial clones and reads what
// they have and what they lack.
func TestStore_MissingObjects(t *testing.T) {
	ctx := context.Background()
	src := seeded(t, map[string]string{"a.md": "one\n", "img.png": "\x89PNG\x00old"})
	old := rev(t, src, "HEAD")
	gittest.Commit(t, src, "two", map[string]string{"a.md": "one\ntwo\n", "img.png": "\x89PNG\x00new"})

	for _, tc := range []struct {
		name   string
		config [][2]string
	}{
		{name: "promisor remote"},
		// Older git marks a partial clone with the repository extension.
		{name: "partialClone extension", config: [][2]string{{"extensions.partialClone", "origin"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := gittest.PartialClone(t, src)
			for _, kv := range tc.config {
				gittest.Git(t, dir, "config", kv[0], kv[1])
			}
			s := openStore(t, dir)
			head, err := s.Head(ctx)
			if err != nil || head.Commit != rev(t, src, "HEAD") {
				t.Fatalf("Head = %+v, %v", head, err)
			}
			gone := gittest.BlobAt(t, src, old, "a.md")
			if !slices.Contains(gittest.MissingObjects(t, dir), gone) {
				t.Fatalf("the clone has the old a.md %s", gone)
			}

			// HEAD is complete.
			snap, err := s.Snapshot(ctx, head.Commit)
			if err != nil {
				t.Fatal(err)
			}
			if _, b, err := snap.Read(ctx, "a.md"); err != nil || string(b) != "one\ntwo\n" {
				t.Errorf("Read(a.md) at HEAD = %q, %v", b, err)
			}

			// An old blob is a missing object, not a missing note.
			_, err = s.ReadBlob(ctx, gone)
			var missing *wiki.MissingObjectError
			if !errors.Is(err, wiki.ErrMissingObject) || !errors.As(err, &missing) || missing.ID != gone {
				t.Fatalf("ReadBlob(old) = %v, want a *wiki.MissingObjectError for %s", err, gone)
			}
			wantCode(t, err, wiki.CodeNotFound)
			var ne *wiki.Error
			if !errors.As(err, &ne) || !strings.Contains(ne.Message, gone) || !strings.Contains(ne.Hint, "git cat-file -e "+gone) {
				t.Errorf("contract error %+v: want the id in the message and how to fetch it in the hint", ne)
			}
			oldSnap, err := s.Snapshot(ctx, old)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := oldSnap.Read(ctx, "a.md"); !errors.Is(err, wiki.ErrMissingObject) {
				t.Errorf("Read(a.md) at the old commit = %v, want a missing object", err)
			}

			// Listing and statting the old tree need no blob: a missing
			// blob's size is -1.
			files, err := oldSnap.Files(ctx, "")
			if err != nil || len(files) != 2 {
				t.Fatalf("Files at the old commit = %+v, %v", files, err)
			}
			for _, f := range files {
				if f.Size != -1 {
					t.Errorf("%s: size %d, want -1 for a missing blob", f.Path, f.Size)
				}
			}
			if f, err := oldSnap.Stat(ctx, "img.png"); err != nil || f.Size != -1 {
				t.Errorf("Stat(img.png) at the old commit = %+v, %v", f, err)
			}
			if f, err := snap.Stat(ctx, "img.png"); err != nil || f.Size != 8 {
				t.Errorf("Stat(img.png) at HEAD = %+v, %v", f, err)
			}
			changes, err := s.Changes(ctx, old, head.Commit)
			if err != nil || len(changes) != 2 {
				t.Errorf("Changes(old, HEAD) = %+v, %v", changes, err)
			}

			// A full sha that names nothing is an unknown revision.
			_, err = s.ResolveRevision(ctx, strings.Repeat("1", 40))
			wantCode(t, err, wiki.CodeNotFound)
			if errors.Is(err, wiki.ErrMissingObject) || !strings.Contains(err.Error(), "unknown revision") {
				t.Errorf("ResolveRevision(unknown sha) = %v, want unknown revision", err)
			}
		})
	}
}
