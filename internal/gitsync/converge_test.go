package gitsync_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// TestSyncer_Converge runs three clones of one wiki, each changing notes at
// random (appends to shared notes, new notes, tags, frontmatter keys,
// moves, deletes of its own scratch notes, attachments committed with git)
// and syncing at random moments, all at once; then syncs them until quiet.
// Every clone must end with the same tree, every acknowledged change must
// be in it (merged, or in a conflict copy), git fsck --strict must be
// clean, and no file may hold conflict markers.
func TestSyncer_Converge(t *testing.T) {
	ops := 200
	if testing.Short() {
		ops = 40
	}
	seed := map[string]string{}
	for i := range 8 {
		seed[fmt.Sprintf("shared/n%d.md", i)] = fmt.Sprintf("---\ntags: [shared]\n---\n# Note %d\n\nShared note %d.\n", i, i)
	}
	remote := remoteWith(t, seed)
	machines := []*machine{cloneOf(t, remote), cloneOf(t, remote), cloneOf(t, remote)}

	var mu sync.Mutex
	var acked []string // tokens of acknowledged changes that must survive
	ack := func(token string) {
		mu.Lock()
		acked = append(acked, token)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for i, m := range machines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			randomChanges(t, m, i, ops, ack)
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}

	// Sync until every clone is at the remote's branch.
	for pass := 0; ; pass++ {
		for _, m := range machines {
			m.round(t)
		}
		want := strings.TrimSpace(gittest.Git(t, remote, "rev-parse", "main"))
		same := true
		for _, m := range machines {
			same = same && head(t, m.dir) == want
		}
		if same {
			break
		}
		if pass == 5 {
			t.Fatalf("not in sync after %d passes", pass+1)
		}
	}
	tree := strings.TrimSpace(gittest.Git(t, machines[0].dir, "rev-parse", "HEAD^{tree}"))
	for i, m := range machines {
		if got := strings.TrimSpace(gittest.Git(t, m.dir, "rev-parse", "HEAD^{tree}")); got != tree {
			t.Errorf("clone %d has tree %s, clone 0 %s", i, got, tree)
		}
		gittest.Git(t, m.dir, "fsck", "--strict", "--no-progress")
		if st := gittest.Status(t, m.dir); st != "" {
			t.Errorf("clone %d is not clean:\n%s", i, st)
		}
	}
	gittest.Git(t, remote, "fsck", "--strict", "--no-progress")

	all := readTree(t, machines[0].dir)
	for file, content := range all {
		if strings.Contains(content, "<<<<<<<") || strings.Contains(content, ">>>>>>>") {
			t.Errorf("%s holds conflict markers", file)
		}
	}
	var text strings.Builder
	for _, c := range all {
		text.WriteString(c)
		text.WriteByte('\n')
	}
	missing := 0
	for _, token := range acked {
		if !strings.Contains(text.String(), token) {
			missing++
			t.Errorf("acknowledged change %s is lost; its history:\n%s", token,
				gittest.Git(t, remote, "log", "main", "--format=%h %p %s", "--name-status", "-S", token))
		}
	}
	merges := strings.Count(gittest.Git(t, machines[0].dir, "log", "--merges", "--format=%H"), "\n")
	copies := 0
	for file := range all {
		if strings.Contains(file, "(conflict ") {
			copies++
		}
	}
	t.Logf("%d acknowledged changes, %d lost; %d files, %d merge commits, %d conflict copies", len(acked), missing, len(all), merges, copies)
}

// randomChanges makes n random changes on machine m (number i) and syncs
// at random moments, reporting each acknowledged change's token.
func randomChanges(t *testing.T, m *machine, i, n int, ack func(string)) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(i)+1, 42))
	for k := range n {
		token := fmt.Sprintf("tok-m%d-%03d", i, k)
		shared := sharedNotes(t, m.dir)
		pick := func() string { return shared[rng.IntN(len(shared))] }
		var err error
		acknowledged := true
		switch r := rng.IntN(100); {
		case r < 35 && len(shared) > 0:
			_, err = m.w.Edit(ctx, wiki.EditRequest{Path: pick(), Edits: []note.Edit{{Op: "append", Content: "- " + token}}})
		case r < 50:
			_, err = m.w.Write(ctx, wiki.WriteRequest{Path: fmt.Sprintf("shared/new-m%d-%03d", i, k), Content: "# New\n\n" + token + "\n"})
		case r < 62 && len(shared) > 0:
			_, err = m.w.UpdateMetadata(ctx, wiki.MetadataRequest{Path: pick(), Change: note.MetaChange{AddTags: []string{token}}})
		case r < 72 && len(shared) > 0:
			_, err = m.w.UpdateMetadata(ctx, wiki.MetadataRequest{Path: pick(), Change: note.MetaChange{Set: map[string]any{strings.ReplaceAll(token, "-", "_"): "v"}}})
			token = strings.ReplaceAll(token, "-", "_")
		case r < 80 && len(shared) > 0:
			_, err = m.w.Move(ctx, wiki.MoveRequest{Path: pick(), NewPath: fmt.Sprintf("shared/moved-m%d-%03d", i, k)})
			acknowledged = false
		case r < 92:
			// Scratch notes are this machine's alone: a delete of one is
			// deliberate and loses nothing another machine made.
			scratch := fmt.Sprintf("scratch/m%d/s%03d", i, k)
			_, err = m.w.Write(ctx, wiki.WriteRequest{Path: scratch, Content: "# Scratch\n"})
			if err == nil && k > 2 && rng.IntN(2) == 0 {
				old := fmt.Sprintf("scratch/m%d/s%03d", i, rng.IntN(k))
				if _, derr := m.w.Delete(ctx, wiki.DeleteRequest{Path: old, Confirm: true}); derr != nil && wiki.CodeOf(derr) != wiki.CodeNotFound {
					err = derr
				}
			}
			acknowledged = false
		default:
			gittest.Commit(t, m.dir, "attachment", map[string]string{fmt.Sprintf("assets/m%d-%03d.bin", i, k): "\x00bin " + token})
		}
		if err != nil {
			if c := wiki.CodeOf(err); c == wiki.CodeNotFound || c == wiki.CodeAlreadyExists {
				continue // the note moved or went away in a sync
			}
			t.Errorf("machine %d, change %d: %v", i, k, err)
			return
		}
		if acknowledged {
			ack(token)
		}
		if rng.IntN(100) < 15 {
			// A push the others kept beating is pushed by a later round,
			// as the daemon's next one would.
			if _, err := m.s.Round(ctx); err != nil && !errors.Is(err, gitsync.ErrRejected) {
				t.Errorf("machine %d, sync after change %d: %v", i, k, err)
				return
			}
		}
	}
}

// sharedNotes lists the note paths under shared/ in a checkout.
func sharedNotes(t *testing.T, dir string) []string {
	var out []string
	for _, f := range strings.Split(gittest.Git(t, dir, "ls-files", "-z", "shared/"), "\x00") {
		if p, _, ok := note.SplitFileName(f); ok {
			out = append(out, p)
		}
	}
	return out
}

// readTree reads every file of a clean checkout, by path.
func readTree(t *testing.T, dir string) map[string]string {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
