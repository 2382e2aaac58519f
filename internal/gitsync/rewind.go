package gitsync

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// A git command that resets the checkout to HEAD reads HEAD first and moves
// the branch to it last: `git stash` runs `git reset --hard`, and a wikid
// commit that lands in between is taken off the branch (its reflog says
// "reset: moving to HEAD", a reset that meant to move nothing). The commit
// is still in the repository, but its notes are gone from the branch, the
// index and the checkout. A reset to anything else (HEAD~1, a tag, a remote
// branch) is the person's choice and is respected.

// unmovingReset is the reflog message of a reset to HEAD.
const unmovingReset = "reset: moving to HEAD"

// reflogReader reads the entries appended to a branch's reflog since it
// last looked.
type reflogReader struct {
	branch string // full ref name
	file   string
	offset int64
}

// reflogEntry is one line of a reflog: the ref moved from old to new.
type reflogEntry struct {
	old, new, message string
}

// next returns the entries appended since the last call; the first call
// only notes where the reflog ends. A reflog that shrank (expired) is read
// from its new end on.
func (r *reflogReader) next() []reflogEntry {
	f, err := os.Open(r.file)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	if r.offset < 0 || fi.Size() < r.offset {
		r.offset = fi.Size()
		return nil
	}
	b, err := io.ReadAll(io.NewSectionReader(f, r.offset, fi.Size()-r.offset))
	if err != nil {
		return nil
	}
	end := bytes.LastIndexByte(b, '\n') + 1 // a line being written is read next time
	r.offset += int64(end)
	var out []reflogEntry
	for _, line := range strings.Split(string(b[:end]), "\n") {
		head, msg, ok := strings.Cut(line, "\t")
		fields := strings.Fields(head)
		if !ok || len(fields) < 2 {
			continue
		}
		out = append(out, reflogEntry{old: fields[0], new: fields[1], message: msg})
	}
	return out
}

// checkRewinds reads the reflog of the branch HEAD is on and puts back the
// acknowledged changes that an unmoving reset took off it.
func (g *Guard) checkRewinds(ctx context.Context) {
	head, err := g.w.Head(ctx)
	if err != nil || head.Branch == "" {
		return
	}
	if g.reflog == nil || g.reflog.branch != head.Branch {
		out, err := git(ctx, g.dir, "rev-parse", "--git-path", "logs/"+head.Branch)
		if err != nil {
			return
		}
		file := strings.TrimSpace(out)
		if !filepath.IsAbs(file) {
			file = filepath.Join(g.dir, file)
		}
		g.reflog = &reflogReader{branch: head.Branch, file: file, offset: -1}
	}
	for _, e := range g.reflog.next() {
		if e.message != unmovingReset || e.old == e.new || strings.Trim(e.old, "0") == "" || strings.Trim(e.new, "0") == "" {
			continue
		}
		if back, err := g.w.IsAncestor(ctx, e.new, e.old); err != nil || !back {
			continue
		}
		dropped, err := g.rewound(ctx, e.new, e.old)
		if err != nil {
			g.logger.Warn("reading the commits a reset took off the branch", "from", short(e.old), "to", short(e.new), "err", err)
			continue
		}
		if len(dropped) == 0 {
			continue
		}
		names := slices.Sorted(maps.Keys(dropped))
		why := fmt.Sprintf("A git reset to HEAD (as git stash runs it) moved %s back from %s to %s while wikid committed, "+
			"taking changes that wikid had made and acknowledged off the branch: %s. They are put back: "+
			"what wikid wrote is written again, what it moved away or deleted is removed again.",
			wiki.BranchName(head.Branch), short(e.old), short(e.new), strings.Join(names, ", "))
		g.restoreOrRetry(ctx, e.new, dropped, why)
	}
}

// rewound returns the notes whose last change in the commits from..to
// (those a reset took off the branch, to being the old tip) is wikid's, as
// to has them: a note wikid wrote is put back, and a note wikid removed
// (deleted, or moved away from its path) is removed again.
func (g *Guard) rewound(ctx context.Context, from, to string) (map[string]drop, error) {
	store := g.w
	changes, err := store.Changes(ctx, from, to)
	if err != nil {
		return nil, err
	}
	snap, err := store.Snapshot(ctx, to)
	if err != nil {
		return nil, err
	}
	out := map[string]drop{}
	for _, c := range changes {
		if !note.IsMarkdown(c.Path) {
			continue
		}
		if log, _ := git(ctx, g.dir, "log", "-1", "--format=%B", from+".."+to, "--", c.Path); !isWikid(log) {
			continue // not a change wikid acknowledged
		}
		if c.NewBlob == "" {
			if c.OldBlob != "" {
				out[c.Path] = drop{left: c.OldBlob, remove: true}
			}
			continue
		}
		_, b, err := snap.Read(ctx, c.Path)
		if err != nil {
			return nil, err
		}
		out[c.Path] = drop{want: b, left: c.OldBlob}
	}
	return out, nil
}
