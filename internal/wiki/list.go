package wiki

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// List limits: how many notes a page holds unless asked, and at most.
const (
	DefaultListLimit = 50
	MaxListLimit     = 200
)

// The sort orders of List.
const (
	SortAlpha    = "alpha"
	SortModified = "modified"
	SortCreated  = "created"
)

// ListRequest browses a folder.
type ListRequest struct {
	// Path is the folder; "" is the root.
	Path string
	// Recursive lists the notes of every subfolder too, and every subfolder
	// at any depth; otherwise only the direct children.
	Recursive bool
	// Tag keeps the notes that have the tag or a tag nested under it.
	Tag string
	// Sort is alpha (by path, ignoring case; the default), modified or
	// created (newest first; notes without a date last).
	Sort string
	// Limit is how many notes a page holds: default DefaultListLimit, at
	// most MaxListLimit.
	Limit int
	// Cursor continues after the page that returned it.
	Cursor string
}

// ListResult is one page of a folder listing. Note and Folders are on the
// first page only.
type ListResult struct {
	// Path is the folder listed, "" for the root.
	Path string
	// Note is the note whose path is the folder's path, if there is one: a
	// folder projects/alpha and a note projects/alpha.md may coexist.
	Note *NoteSummary
	// Folders are the subfolders that hold notes (matching Tag), by path.
	Folders []FolderSummary
	Notes   []NoteSummary
	// Total counts the notes listed over all pages.
	Total      int
	NextCursor string
}

// NoteSummary is a note as lists show it, with its dates: the
// frontmatter's, else git's (absent from a list by path while the history
// index is still being built; a list by date waits for it).
type NoteSummary struct {
	Path  string
	Title string
	Tags  []string
	Dates
}

// FolderSummary is a subfolder and how many notes it holds at any depth.
type FolderSummary struct {
	Path  string
	Notes int
}

// List returns a page of the notes in a folder at HEAD, the folder's
// subfolders with their note counts, and the note at the folder's own path.
// It returns INVALID_PATH for a bad folder, INVALID_PARAMS for a bad sort,
// limit or cursor, and NOT_FOUND when nothing at all lies at the path.
func (w *Wiki) List(ctx context.Context, req ListRequest) (*ListResult, error) {
	folder, err := note.CleanFolder(req.Path)
	if err != nil {
		return nil, err
	}
	order, err := listSort(req.Sort)
	if err != nil {
		return nil, err
	}
	limit, err := pageLimit(req.Limit, DefaultListLimit, MaxListLimit)
	if err != nil {
		return nil, err
	}
	scope := cursorScope{"list", folder, req.Recursive, note.NewTag(req.Tag).Norm, order}
	pos, err := scope.open(req.Cursor)
	if err != nil {
		return nil, err
	}
	var after *listCursor
	if pos != "" {
		if after, err = decodeListCursor(pos, order); err != nil {
			return nil, err
		}
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx, folder)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 && folder != "" {
		// The folder may be spelled in another normalization form.
		if sp, err := w.fold.spellFolder(ctx, w.store, snap, note.Normalize(folder)); err != nil {
			return nil, err
		} else if sp != folder {
			if files, err = snap.Files(ctx, sp); err != nil {
				return nil, err
			}
			folder = sp
		}
	}
	res := &ListResult{Path: folder, Folders: []FolderSummary{}, Notes: []NoteSummary{}}
	if folder != "" && after == nil {
		if res.Note, err = w.noteAtPath(ctx, snap, folder); err != nil {
			return nil, err
		}
	}
	if folder != "" && len(files) == 0 && res.Note == nil {
		return nil, Errorf(CodeNotFound, "no folder or note %q", folder).
			WithHint("list the parent folder to see what exists; folder names are case-sensitive")
	}

	// Keep the notes, filtered by tag, and count them per subfolder.
	var items []listItem
	counts := map[string]int{}
	for _, f := range files {
		p, _, ok := note.SplitFileName(f.Path)
		if !ok {
			continue
		}
		it := listItem{file: f, path: p}
		if req.Tag != "" {
			if it.note, err = w.noteOf(ctx, snap, f); err != nil {
				return nil, err
			}
			if !it.note.HasTag(req.Tag) {
				continue
			}
		}
		rel := strings.TrimPrefix(p, folder+"/")
		if folder == "" {
			rel = p
		}
		dirs := strings.Split(rel, "/")
		dirs = dirs[:len(dirs)-1]
		for i := range dirs {
			if i > 0 && !req.Recursive {
				break
			}
			counts[path.Join(folder, strings.Join(dirs[:i+1], "/"))]++
		}
		if len(dirs) == 0 || req.Recursive {
			items = append(items, it)
		}
	}
	if after == nil {
		for dir, n := range counts {
			res.Folders = append(res.Folders, FolderSummary{Path: dir, Notes: n})
		}
		sort.Slice(res.Folders, func(i, j int) bool { return res.Folders[i].Path < res.Folders[j].Path })
	}
	res.Total = len(items)

	// Sort, then cut the page. An order by date waits for git's dates: an
	// order without them would not be the one the next page continues.
	if order != SortAlpha {
		if err := w.syncHistoryTo(ctx, snap.Commit()); err != nil {
			return nil, err
		}
		times := w.itemTimes(ctx, snap.Commit(), items)
		for i := range items {
			if err := w.fillItem(ctx, snap, &items[i], times); err != nil {
				return nil, err
			}
		}
	}
	sort.Slice(items, func(i, j int) bool { return items[i].less(&items[j], order) })
	start := 0
	if after != nil {
		start = sort.Search(len(items), func(i int) bool { return after.before(&items[i], order) })
	}
	end := min(start+limit, len(items))
	page := items[start:end]
	if order == SortAlpha {
		times := w.itemTimes(ctx, snap.Commit(), page)
		for i := range page {
			if err := w.fillItem(ctx, snap, &page[i], times); err != nil {
				return nil, err
			}
		}
	}
	for _, it := range page {
		res.Notes = append(res.Notes, it.summary)
	}
	if end < len(items) {
		res.NextCursor = scope.seal(encodeListCursor(order, &items[end-1]))
	}
	return res, nil
}

// listItem is a note being listed; summary is filled in when needed.
type listItem struct {
	file    File
	path    string
	note    *note.Note
	summary NoteSummary
	filled  bool
}

func (a *listItem) less(b *listItem, order string) bool {
	ka, kb := a.sortKey(order), b.sortKey(order)
	if ka != kb {
		if order == SortAlpha {
			return ka < kb
		}
		return ka > kb // newest first; "" (no date) sorts last
	}
	return a.path < b.path
}

// sortKey is the item's key in an order: the lowercased path for alpha, the
// date in a form that sorts as a string for the others.
func (a *listItem) sortKey(order string) string {
	var t *time.Time
	switch order {
	case SortAlpha:
		return strings.ToLower(a.path)
	case SortModified:
		t = a.summary.Modified
	case SortCreated:
		t = a.summary.Created
	}
	if t == nil {
		return ""
	}
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// fillItem parses the item's note, if not done yet, and fills its summary.
func (w *Wiki) fillItem(ctx context.Context, snap Snapshot, it *listItem, times map[string]FileTimes) error {
	if it.filled {
		return nil
	}
	if it.note == nil {
		n, err := w.noteOf(ctx, snap, it.file)
		if err != nil {
			return err
		}
		it.note = n
	}
	it.summary = summarize(it.note, times[it.file.Path])
	it.filled = true
	return nil
}

// summarize returns a note's summary; t holds the file's git times.
func summarize(n *note.Note, t FileTimes) NoteSummary {
	s := NoteSummary{Path: n.Path, Title: n.Title, Tags: make([]string, len(n.Tags)), Dates: noteDates(n, t)}
	for i, tag := range n.Tags {
		s.Tags[i] = tag.Name
	}
	return s
}

// noteOf returns the parsed note of a file in snap, from the cache when it
// is there.
func (w *Wiki) noteOf(ctx context.Context, snap Snapshot, f File) (*note.Note, error) {
	p := notePathOf(f.Path)
	if n := w.notes.get(f.Blob, p); n != nil {
		return n, nil
	}
	f, content, err := snap.Read(ctx, f.Path)
	if err != nil {
		return nil, err
	}
	return w.parse(p, f, content), nil
}

// noteAtPath returns the summary of the note at notePath, or nil when there
// is none.
func (w *Wiki) noteAtPath(ctx context.Context, snap Snapshot, notePath string) (*NoteSummary, error) {
	f, n, err := w.readNote(ctx, snap, notePath, "")
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := summarize(n, w.itemTimes(ctx, snap.Commit(), []listItem{{file: f}})[f.Path])
	return &s, nil
}

// itemTimes returns the git times of the items' files at head; none while
// the history index is still being built.
func (w *Wiki) itemTimes(ctx context.Context, head string, items []listItem) map[string]FileTimes {
	files := make([]string, len(items))
	for i, it := range items {
		files[i] = it.file.Path
	}
	times, _ := w.gitTimes(ctx, head, true, files)
	return times
}

func listSort(s string) (string, error) {
	switch s {
	case "":
		return SortAlpha, nil
	case SortAlpha, SortModified, SortCreated:
		return s, nil
	}
	return "", Errorf(CodeInvalidParams, "unknown sort %q", s).
		WithHint("use alpha, modified or created")
}

// pageLimit applies a list's default and maximum to a requested limit.
func pageLimit(limit, def, max int) (int, error) {
	switch {
	case limit < 0:
		return 0, Errorf(CodeInvalidParams, "limit %d is negative", limit).
			WithHint("use a limit from 1 to %d, or omit it for %d", max, def)
	case limit == 0:
		return def, nil
	}
	return min(limit, max), nil
}

// listCursor is the position after the last note of a page.
type listCursor struct {
	Sort string
	Key  string
	Path string
}

// before reports whether the cursor's position comes before it.
func (c *listCursor) before(it *listItem, order string) bool {
	k := it.sortKey(order)
	if k != c.Key {
		if order == SortAlpha {
			return c.Key < k
		}
		return c.Key > k
	}
	return c.Path < it.path
}

func encodeListCursor(order string, last *listItem) string {
	b, _ := json.Marshal(listCursor{Sort: order, Key: last.sortKey(order), Path: last.path})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeListCursor(s, order string) (*listCursor, error) {
	bad := Errorf(CodeInvalidParams, "bad cursor").
		WithHint("pass the {next_cursor} of the previous page unchanged, with the same sort, or omit it to start over")
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var c listCursor
	if err := json.Unmarshal(b, &c); err != nil || c.Path == "" {
		return nil, bad
	}
	if c.Sort != order {
		bad.Message = "bad cursor: it belongs to sort " + c.Sort + ", not " + order
		return nil, bad
	}
	return &c, nil
}
