package sync

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// A person's git command racing a wikid commit in the same checkout can
// drop the new note from HEAD: `git pull` reads the index before the
// commit, writes a merged index without the note, and the next `git
// commit -a` records that index. The commit is in history, but the note is
// gone, and the assistant was told it was made. The Guard looks at every
// commit wikid did not make as HEAD moves, and puts back what such a
// commit dropped without meaning to:
//
//   - a merge whose result lacks a note's version that one parent made
//     since the merge base (in a wikid commit) while the other parent
//     never touched the note;
//   - a commit that undoes, exactly, the last wikid change to a note,
//     without naming the note or saying "revert" in its message.
//
// A person's deliberate delete or edit says so in its message, or leaves
// the note otherwise than before wikid's change, and is respected; so is a
// second undo of what the guard itself put back.

// Guard restores the changes foreign commits drop by accident.
type Guard struct {
	w      *wiki.Wiki
	dir    string
	logger *slog.Logger

	mu       sync.Mutex
	restored []string // "path (dropped by <commit>)", newest last
}

// NewGuard returns the guard of the wiki w, whose repository is at dir.
func NewGuard(w *wiki.Wiki, dir string, logger *slog.Logger) *Guard {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Guard{w: w, dir: dir, logger: logger}
}

// Restored lists what the guard put back, newest last.
func (g *Guard) Restored() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.restored...)
}

// Run checks every move of HEAD until ctx is done, polling every interval.
func (g *Guard) Run(ctx context.Context, interval time.Duration) {
	last := ""
	if head, err := g.w.Store().Head(ctx); err == nil {
		last = head.Commit
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		head, err := g.w.Store().Head(ctx)
		if err != nil || head.Commit == last || head.Detached {
			continue
		}
		if last != "" {
			if _, err := g.Check(ctx, last, head.Commit); err != nil && ctx.Err() == nil {
				g.logger.Warn("checking the commits for dropped changes", "err", err)
			}
		}
		if head, err = g.w.Store().Head(ctx); err == nil {
			last = head.Commit // past the guard's own restore
		}
	}
}

// Check looks at the commits that to has and from lacks, oldest first, and
// restores, one commit for each commit that dropped any, what they dropped.
// It returns the notes restored.
func (g *Guard) Check(ctx context.Context, from, to string) ([]string, error) {
	out, err := git(ctx, g.dir, "rev-list", "--reverse", "--parents", from+".."+to)
	if err != nil {
		return nil, err
	}
	var all []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		ids := strings.Fields(line)
		if len(ids) < 2 {
			continue // a root commit drops nothing
		}
		info, err := g.w.Store().CommitInfo(ctx, ids[0])
		if err != nil {
			return all, err
		}
		msg := info.Message
		if isWikid(msg) {
			continue
		}
		dropped, err := g.dropped(ctx, ids[0], ids[1:], msg)
		if err != nil {
			return all, err
		}
		if len(dropped) == 0 {
			continue
		}
		files := map[string][]byte{}
		var names []string
		for file, content := range dropped {
			files[file] = content
			names = append(names, file)
		}
		why := fmt.Sprintf("Commit %s, which wikid did not make, dropped changes that wikid had made and "+
			"acknowledged, without naming them: %s. They are put back; delete or edit them again, naming them in the "+
			"commit message, if that was meant.", short(ids[0]), strings.Join(names, ", "))
		if _, err := g.w.RestoreDropped(ctx, ids[0], files, why); err != nil {
			if errors.Is(err, context.Canceled) {
				return all, err
			}
			g.logger.Warn("restoring dropped changes", "commit", short(ids[0]), "err", err)
			continue
		}
		g.logger.Warn("restored changes a foreign commit dropped", "commit", short(ids[0]), "files", names)
		g.mu.Lock()
		for _, n := range names {
			g.restored = append(g.restored, fmt.Sprintf("%s (dropped by %s)", n, short(ids[0])))
		}
		if len(g.restored) > maxConflicts {
			g.restored = g.restored[len(g.restored)-maxConflicts:]
		}
		g.mu.Unlock()
		all = append(all, names...)
	}
	return all, nil
}

// dropped returns the note files commit (with parents) dropped by
// accident, with the content to put back.
func (g *Guard) dropped(ctx context.Context, commit string, parents []string, msg string) (map[string][]byte, error) {
	out := map[string][]byte{}
	store := g.w.Store()
	// blob returns the version of file at commit c, "" when it has none.
	blob := func(c, file string) string {
		snap, err := store.Snapshot(ctx, c)
		if err != nil {
			return ""
		}
		f, err := snap.Stat(ctx, file)
		if err != nil {
			return ""
		}
		return f.Blob
	}
	content := func(c, file string) ([]byte, error) {
		snap, err := store.Snapshot(ctx, c)
		if err != nil {
			return nil, err
		}
		_, b, err := snap.Read(ctx, file)
		return b, err
	}
	if len(parents) == 2 {
		base, err := store.MergeBase(ctx, parents[0], parents[1])
		if err != nil || base == "" {
			return nil, err
		}
		sides := [2]map[string]wiki.FileChange{}
		for i, p := range parents {
			list, err := store.Changes(ctx, base, p)
			if err != nil {
				return nil, err
			}
			sides[i] = map[string]wiki.FileChange{}
			for _, c := range list {
				sides[i][c.Path] = c
			}
		}
		for i, side := range sides {
			other := sides[1-i]
			for file, c := range side {
				if _, touched := other[file]; touched || c.NewBlob == "" || !note.IsMarkdown(file) {
					continue
				}
				if blob(commit, file) == c.NewBlob {
					continue
				}
				if log, _ := git(ctx, g.dir, "log", "-1", "--format=%B", base+".."+parents[i], "--", file); !isWikid(log) {
					continue // not a change wikid acknowledged
				}
				if b, err := content(parents[i], file); err == nil {
					out[file] = b
				}
			}
		}
		return out, nil
	}
	if len(parents) != 1 {
		return nil, nil
	}
	list, err := store.Changes(ctx, parents[0], commit)
	if err != nil {
		return nil, err
	}
	lower := strings.ToLower(msg)
	if strings.Contains(lower, "revert") {
		return nil, nil
	}
	for _, c := range list {
		if !note.IsMarkdown(c.Path) || mentions(lower, c.Path) {
			continue
		}
		// The last change to the note before this commit, if wikid's.
		last, err := git(ctx, g.dir, "log", "-1", "--format=%H%n%B", parents[0], "--", c.Path)
		if err != nil || strings.TrimSpace(last) == "" {
			continue
		}
		id, body, _ := strings.Cut(last, "\n")
		if !isWikid(body) || strings.Contains(body, "Wiki-Tool: guard") {
			continue
		}
		info, err := store.CommitInfo(ctx, id)
		if err != nil || len(info.Parents) == 0 || blob(info.Parents[0], c.Path) != c.NewBlob {
			continue // not an exact undo of that change
		}
		if c.OldBlob == "" {
			continue // wikid deleted it; bringing a deleted note back is no loss
		}
		if b, err := content(parents[0], c.Path); err == nil {
			out[c.Path] = b
		}
	}
	return out, nil
}

// isWikid reports whether a commit message is one wikid wrote.
func isWikid(msg string) bool { return strings.Contains(msg, "\nWiki-Tool: ") }

// mentions reports whether a lowercased commit message names a note file:
// by its path, its note path or its name.
func mentions(msg, file string) bool {
	notePath, _, _ := note.SplitFileName(file)
	name := path.Base(notePath)
	for _, s := range []string{file, notePath, name} {
		if s != "" && strings.Contains(msg, strings.ToLower(s)) {
			return true
		}
	}
	return false
}
