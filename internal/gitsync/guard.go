package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"path"
	"slices"
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
	// pending are restores refused for a while (LOCAL_CHANGES, LOCKED):
	// a person's git command still holds the checkout. Run retries them.
	pending []pendingRestore
	// reflog reads the branch's reflog for resets (Run's only).
	reflog *reflogReader
}

// A pendingRestore is a restore to try again until its deadline.
type pendingRestore struct {
	commit   string
	dropped  map[string]drop
	why      string
	deadline time.Time
}

// retryFor is how long a refused restore is tried again.
const retryFor = 2 * time.Minute

// NewGuard returns the guard of the wiki w, whose repository git reads at
// dir ("" for its git directory).
func NewGuard(w *wiki.Wiki, dir string, logger *slog.Logger) *Guard {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if dir == "" {
		dir = w.GitDir()
	}
	return &Guard{w: w, dir: dir, logger: logger}
}

// Restored lists what the guard put back, newest last.
func (g *Guard) Restored() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.restored...)
}

// Run checks every move of HEAD until ctx is done, as the wiki's watch
// reports them (wiki.Wiki.Watch: its own commits at once, others' within
// wiki.WatchEvery), and tries again every interval the restores a person's
// git command held back.
func (g *Guard) Run(ctx context.Context, interval time.Duration) {
	last := ""
	if head, err := g.w.Head(ctx); err == nil {
		last = head.Commit
	}
	moved := make(chan struct{}, 1)
	stop := g.w.Watch(func(wiki.HeadMove) {
		select {
		case moved <- struct{}{}:
		default: // a look is due already; it reads HEAD as it is then
		}
	})
	defer stop()
	g.checkRewinds(ctx) // notes where the reflog ends
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			g.retry(ctx)
			continue
		case <-moved:
		}
		g.retry(ctx)
		g.checkRewinds(ctx)
		head, err := g.w.Head(ctx)
		if err != nil || head.Commit == last || head.Detached {
			continue
		}
		if last != "" {
			if _, err := g.Check(ctx, last, head.Commit); err != nil && ctx.Err() == nil {
				g.logger.Warn("checking the commits for dropped changes", "err", err)
			}
		}
		// The next look starts here: it skips the guard's own restores,
		// and sees every commit made after this one, even while Check ran.
		last = head.Commit
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
		c, err := g.w.Commit(ctx, ids[0])
		if err != nil {
			return all, err
		}
		msg := c.Message
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
		names := slices.Sorted(maps.Keys(dropped))
		why := fmt.Sprintf("Commit %s, which wikid did not make, dropped changes that wikid had made and "+
			"acknowledged, without naming them: %s. They are put back; delete or edit them again, naming them in the "+
			"commit message, if that was meant.", short(ids[0]), strings.Join(names, ", "))
		if restored := g.restoreOrRetry(ctx, ids[0], dropped, why); len(restored) > 0 {
			all = append(all, restored...)
		} else if err := ctx.Err(); err != nil {
			return all, err
		}
	}
	return all, nil
}

// restoreOrRetry restores what commit dropped and reports it; a restore
// refused for a reason that passes is kept to retry. It returns the notes
// it restored now.
func (g *Guard) restoreOrRetry(ctx context.Context, commit string, dropped map[string]drop, why string) []string {
	restored, err := g.restore(ctx, commit, dropped, why)
	if err != nil {
		if ctx.Err() == nil {
			g.logger.Warn("restoring dropped changes", "commit", short(commit), "err", err)
			if passing(err) {
				g.mu.Lock()
				g.pending = append(g.pending, pendingRestore{commit, dropped, why, time.Now().Add(retryFor)})
				g.mu.Unlock()
			}
		}
		return nil
	}
	if len(restored) > 0 {
		g.report(commit, restored)
	}
	return restored
}

// passing reports whether a restore failed for a reason that passes: a
// person's uncommitted change, a git lock, another branch checked out.
func passing(err error) bool {
	switch wiki.CodeOf(err) {
	case wiki.CodeLocalChanges, wiki.CodeLocked, wiki.CodeOtherBranch:
		return true
	}
	return false
}

// retry tries the pending restores again, in order, keeping those still
// refused until their deadline.
func (g *Guard) retry(ctx context.Context) {
	g.mu.Lock()
	pending := g.pending
	g.pending = nil
	g.mu.Unlock()
	var keep []pendingRestore
	for _, p := range pending {
		restored, err := g.restore(ctx, p.commit, p.dropped, p.why)
		switch {
		case err == nil && len(restored) > 0:
			g.report(p.commit, restored)
		case err == nil:
		case passing(err) && time.Now().Before(p.deadline), ctx.Err() != nil:
			keep = append(keep, p)
		default:
			g.logger.Warn("restoring dropped changes: giving up", "commit", short(p.commit), "err", err)
		}
	}
	g.mu.Lock()
	g.pending = append(keep, g.pending...)
	g.mu.Unlock()
}

// report logs and remembers what the guard put back.
func (g *Guard) report(commit string, names []string) {
	g.logger.Warn("restored changes a foreign commit dropped", "commit", short(commit), "files", names)
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, n := range names {
		g.restored = append(g.restored, fmt.Sprintf("%s (dropped by %s)", n, short(commit)))
	}
	if len(g.restored) > maxConflicts {
		g.restored = g.restored[len(g.restored)-maxConflicts:]
	}
}

// A drop is a note's version a foreign commit dropped: the content to put
// back, and the version (blob id) the commit left in its place, "" when it
// removed the note. A drop with remove set is a removal the commit undid
// (the old path of a move, a deleted note): the note is to be removed
// again, unless it changed since.
type drop struct {
	want   []byte
	left   string
	remove bool
}

// dropped returns the note files commit (with parents) dropped by
// accident.
func (g *Guard) dropped(ctx context.Context, commit string, parents []string, msg string) (map[string]drop, error) {
	out := map[string]drop{}
	store := g.w
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
				left := blob(commit, file)
				if left == c.NewBlob {
					continue
				}
				if log, _ := git(ctx, g.dir, "log", "-1", "--format=%B", base+".."+parents[i], "--", file); !isWikid(log) {
					continue // not a change wikid acknowledged
				}
				if b, err := content(parents[i], file); err == nil {
					out[file] = drop{want: b, left: left}
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
		info, err := store.Commit(ctx, id)
		if err != nil || len(info.Parents) == 0 || blob(info.Parents[0], c.Path) != c.NewBlob {
			continue // not an exact undo of that change
		}
		if c.OldBlob == "" {
			continue // wikid deleted it; bringing a deleted note back is no loss
		}
		if b, err := content(parents[0], c.Path); err == nil {
			out[c.Path] = drop{want: b, left: c.NewBlob}
		}
	}
	return out, nil
}

// restore puts back what commit dropped, in one commit. A note changed
// since commit dropped it, by anyone, is not overwritten: what was dropped
// is merged into it as sync merges a note, and where that cannot be done
// it is kept whole beside the note, as a conflict copy. A note already
// back as it was is left alone. A note to remove again is removed only
// while it is as commit left it: one changed since is kept, and the commit
// message says so. A change to the notes while the guard works makes it
// look again, up to three times. It returns the dropped notes it acted on,
// sorted.
func (g *Guard) restore(ctx context.Context, commit string, dropped map[string]drop, why string) ([]string, error) {
	store := g.w
	left, err := store.Snapshot(ctx, commit)
	if err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		head, err := store.Head(ctx)
		if err != nil {
			return nil, err
		}
		snap, err := store.Snapshot(ctx, head.Commit)
		if err != nil {
			return nil, err
		}
		m := &merger{label: "restored", now: time.Now(), taken: func(p string) bool {
			_, err := snap.Stat(ctx, p)
			return err == nil
		}}
		files := map[string]wiki.Restore{}
		var acted, kept []string
		for file, d := range dropped {
			cur, now, err := snap.Read(ctx, file)
			switch {
			case errors.Is(err, wiki.ErrNotFound):
				cur.Blob = ""
			case err != nil:
				return nil, err
			}
			if d.remove {
				switch cur.Blob {
				case "": // gone already
				case d.left:
					files[file] = wiki.Restore{Delete: true, Version: cur.Blob}
					acted = append(acted, file)
				default: // changed since: someone's version, kept
					kept = append(kept, file)
				}
				continue
			}
			if cur.Blob == d.left {
				files[file] = wiki.Restore{Content: d.want, Version: cur.Blob}
				acted = append(acted, file)
				continue
			}
			var base []byte
			if d.left != "" {
				if _, base, err = left.Read(ctx, file); err != nil {
					return nil, err
				}
			}
			merged, conflict := mergeNote(base, now, d.want)
			switch {
			case conflict == "" && bytes.Equal(merged, now):
				// Back as it was, or the dropped change is in it.
			case conflict == "":
				files[file] = wiki.Restore{Content: merged, Version: cur.Blob}
				acted = append(acted, file)
			default:
				files[m.copyPath(file)] = wiki.Restore{Content: d.want}
				acted = append(acted, file)
			}
		}
		if len(files) == 0 {
			return nil, nil
		}
		body := why
		if len(kept) > 0 {
			slices.Sort(kept)
			body += fmt.Sprintf(" Changed since, and kept as they are now: %s.", strings.Join(kept, ", "))
		}
		_, err = g.w.RestoreDropped(ctx, commit, files, body)
		if err == nil {
			slices.Sort(acted)
			return acted, nil
		}
		if try == 2 || wiki.CodeOf(err) != wiki.CodeConflict {
			return nil, err
		}
	}
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
