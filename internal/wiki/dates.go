package wiki

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// Where a note's date comes from: Dates.CreatedSource and ModifiedSource.
const (
	// DateFromFrontmatter is a date the note's frontmatter gives (created,
	// modified and their synonyms).
	DateFromFrontmatter = "frontmatter"
	// DateFromGit is the time of the first (created) or last (modified)
	// commit that changed the note, renames followed.
	DateFromGit = "git"
)

// Dates are a note's created and modified dates, each with where it comes
// from: the frontmatter when it has the date, else git (the committer time
// of the oldest and newest commit of `git log --follow`). A date that
// neither knows (no frontmatter date while the history index is still being
// built) is absent.
type Dates struct {
	Created        *time.Time
	CreatedSource  string
	Modified       *time.Time
	ModifiedSource string
}

// noteDates returns a note's dates: the frontmatter's, else git's.
func noteDates(n *note.Note, git FileTimes) Dates {
	var d Dates
	d.Created, d.CreatedSource = pickDate(n.Created, git.Created)
	d.Modified, d.ModifiedSource = pickDate(n.Modified, git.Modified)
	return d
}

// pickDate returns the frontmatter's date if set, else git's, and which
// one it is; nil when neither is set.
func pickDate(fm, git time.Time) (*time.Time, string) {
	switch {
	case !fm.IsZero():
		return &fm, DateFromFrontmatter
	case !git.IsZero():
		return &git, DateFromGit
	}
	return nil, ""
}

// timesCache holds the git times of every file at one head, and the
// notes' by path once a search by date asked for them.
type timesCache struct {
	mu    sync.Mutex
	head  string
	all   map[string]FileTimes
	notes GitDates
}

// searchDates returns git's dates of the notes at HEAD for a search that
// needs them (SearchRequest.NeedsDates), nil for another. It brings the
// history index to HEAD, waiting for its first build and reporting its
// progress.
func (w *Wiki) searchDates(ctx context.Context, req SearchRequest) (GitDates, error) {
	if !req.NeedsDates() {
		return nil, nil
	}
	head, err := w.syncHistory(ctx)
	if err != nil || head.Commit == "" {
		return nil, err
	}
	commit := head.Commit
	all, err := w.allTimes(ctx, commit)
	if err != nil {
		return nil, err
	}
	c := &w.times
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head == commit && c.notes != nil {
		return c.notes, nil
	}
	notes := make(GitDates, len(all))
	for f, t := range all {
		if p, _, ok := note.SplitFileName(f); ok {
			notes[p] = GitDate{Created: t.Created, Modified: t.Modified}
		}
	}
	if c.head == commit {
		c.notes = notes
	}
	return notes, nil
}

// gitTimes returns when each of files, as it is at commit, was created and
// last changed, and by which commit, as `git log --follow` tells. It
// reports false when it cannot know: the history index is still being
// built for the first time (it does not wait for that), or it does not hold
// commit. atHead says commit is HEAD, which the history index is synced to
// first when it has been built.
func (w *Wiki) gitTimes(ctx context.Context, commit string, atHead bool, files []string) (map[string]FileTimes, bool) {
	out := make(map[string]FileTimes, len(files))
	if commit == "" {
		return out, true
	}
	if c := &w.times; atHead {
		c.mu.Lock()
		all := c.all
		if c.head != commit {
			all = nil
		}
		c.mu.Unlock()
		if all != nil {
			return subset(all, files), true
		}
	}
	if atHead && len(files) > timesPerFile {
		all, err := w.allTimes(ctx, commit)
		if err != nil {
			w.log.Debug("git times unknown", "commit", short(commit), "err", err)
			return nil, false
		}
		return subset(all, files), true
	}
	ts, err := w.hist.Times(ctx, commit, files)
	if errors.Is(err, ErrNotFound) && atHead && w.hist.Commit() != "" {
		if err = w.syncHistoryTo(ctx, commit); err == nil {
			ts, err = w.hist.Times(ctx, commit, files)
		}
	}
	if err != nil {
		w.log.Debug("git times unknown", "commit", short(commit), "err", err)
		return nil, false
	}
	return ts, true
}

// timesPerFile is how many files gitTimes asks the history index about one
// by one; for more it computes the times of every file at HEAD once.
const timesPerFile = 64

// allTimes returns the git times of every file at head, computed once per
// head. The history index must hold head or have been built once (then it
// is synced to head); otherwise it returns an error wrapping
// ErrNotFound.
func (w *Wiki) allTimes(ctx context.Context, head string) (map[string]FileTimes, error) {
	c := &w.times
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head == head && c.all != nil {
		return c.all, nil
	}
	all, err := w.hist.Times(ctx, head, nil)
	if errors.Is(err, ErrNotFound) && w.hist.Commit() != "" {
		if err = w.syncHistoryTo(ctx, head); err == nil {
			all, err = w.hist.Times(ctx, head, nil)
		}
	}
	if err != nil {
		return nil, err
	}
	c.head, c.all, c.notes = head, all, nil
	return all, nil
}

func subset(all map[string]FileTimes, files []string) map[string]FileTimes {
	out := make(map[string]FileTimes, len(files))
	for _, f := range files {
		if t, ok := all[f]; ok {
			out[f] = t
		}
	}
	return out
}
