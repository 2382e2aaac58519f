package wiki

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// Recent change limits: notes per page unless asked, and at most.
const (
	DefaultRecentLimit = 10
	MaxRecentLimit     = 100
)

// RecentRequest asks for the notes changed most recently.
type RecentRequest struct {
	// Since keeps notes last changed at or after it.
	Since time.Time
	// Folder keeps notes under it.
	Folder string
	// Author keeps notes whose last change was made by this author:
	// "Name <email>" matched case-insensitively, as a substring.
	Author string
	Limit  int
	Cursor string
}

// RecentResult is one page of notes, most recently changed first.
type RecentResult struct {
	Results    []RecentNote
	Total      int
	NextCursor string
}

// RecentNote is a note and its last change.
type RecentNote struct {
	Path  string
	Title string
	Tags  []string
	// Created is the frontmatter's created date, else git's (the note's
	// first commit); CreatedSource says which.
	Created       *time.Time
	CreatedSource string
	// Modified is the time of the last commit that changed the note, the
	// order of the list (ModifiedSource "git"), and Commit and Author that
	// commit's.
	Modified       time.Time
	ModifiedSource string
	Commit         string
	Author         string
}

// RecentChanges returns the notes at HEAD ordered by their last change,
// newest first, from the history index: one pass over the history gives
// every note's last commit (as the first entry of `git log --follow`), and
// only the notes of the page are read. It returns INVALID_PATH (a bad folder) and INVALID_PARAMS (a bad limit or
// cursor).
func (w *Wiki) RecentChanges(ctx context.Context, req RecentRequest) (*RecentResult, error) {
	limit, err := pageLimit(req.Limit, DefaultRecentLimit, MaxRecentLimit)
	if err != nil {
		return nil, err
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	scope := cursorScope{"recent", folder, timeKey(req.Since), req.Author}
	if req.Cursor, err = scope.open(req.Cursor); err != nil {
		return nil, err
	}
	var after *recentCursor
	if req.Cursor != "" {
		if after, err = decodeRecentCursor(req.Cursor); err != nil {
			return nil, err
		}
	}
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	res := &RecentResult{Results: []RecentNote{}}
	if head.Commit == "" {
		return res, nil
	}
	snap, err := w.store.Snapshot(ctx, head.Commit)
	if err != nil {
		return nil, err
	}
	all, err := w.recentItems(ctx, head.Commit)
	if err != nil {
		return nil, err
	}
	var items []recentItem
	for _, it := range all {
		if folder != "" && !strings.HasPrefix(it.file, folder+"/") {
			continue
		}
		if it.unix < req.Since.Unix() && !req.Since.IsZero() {
			continue
		}
		if req.Author != "" && !containsFold(who(it.t.Author), req.Author) {
			continue
		}
		items = append(items, it)
	}
	res.Total = len(items)
	start := 0
	if after != nil {
		start = sort.Search(len(items), func(i int) bool {
			m := items[i].unix
			return m < after.Modified || (m == after.Modified && items[i].file > after.File)
		})
	}
	for i, it := range items[start:] {
		if len(res.Results) == limit {
			prev := items[start+i-1]
			res.NextCursor = scope.seal(encodeRecentCursor(recentCursor{Modified: prev.unix, File: prev.file}))
			break
		}
		f, err := snap.Stat(ctx, it.file)
		if errors.Is(err, ErrNotFound) {
			continue // deleted by a merge
		}
		if err != nil {
			return nil, err
		}
		n, err := w.noteOf(ctx, snap, f)
		if err != nil {
			return nil, err
		}
		tags := make([]string, len(n.Tags))
		for i, t := range n.Tags {
			tags[i] = t.Name
		}
		d := noteDates(n, it.t)
		res.Results = append(res.Results, RecentNote{Path: n.Path, Title: n.Title, Tags: tags,
			Created: d.Created, CreatedSource: d.CreatedSource, Modified: it.t.Modified, ModifiedSource: DateFromGit,
			Commit: it.t.Commit, Author: who(it.t.Author)})
	}
	return res, nil
}

// recentCache holds the notes at one head, most recently changed first.
type recentCache struct {
	mu    sync.Mutex
	head  string
	items []recentItem
}

// recentItem is a note's file and its times.
type recentItem struct {
	file string
	unix int64 // t.Modified
	t    FileTimes
}

// recentItems returns the notes at head, most recently changed first,
// computed once per head.
func (w *Wiki) recentItems(ctx context.Context, head string) ([]recentItem, error) {
	c := &w.recent
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head == head && c.items != nil {
		return c.items, nil
	}
	times, err := w.allTimes(ctx, head)
	if err != nil {
		return nil, err
	}
	items := make([]recentItem, 0, len(times))
	for file, t := range times {
		if _, _, ok := note.SplitFileName(file); ok {
			items = append(items, recentItem{file, t.Modified.Unix(), t})
		}
	}
	slices.SortFunc(items, func(a, b recentItem) int {
		if a.unix != b.unix {
			return cmp.Compare(b.unix, a.unix)
		}
		return strings.Compare(a.file, b.file)
	})
	c.head, c.items = head, items
	return items, nil
}

// recentCursor is the position after the last note of a page.
type recentCursor struct {
	Modified int64
	File     string
}

func encodeRecentCursor(c recentCursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeRecentCursor(s string) (*recentCursor, error) {
	var c recentCursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.File == "" {
		return nil, Errorf(CodeInvalidParams, "bad cursor").
			WithHint("pass the {next_cursor} of the previous page unchanged, or omit it to start over")
	}
	return &c, nil
}

// containsFold reports whether sub occurs in s, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}
