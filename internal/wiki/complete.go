package wiki

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// MaxCompletions is the most values a completion returns, as MCP allows.
const MaxCompletions = 100

// Completion is what completes the start of a value: the values, best
// first, and how many match in all.
type Completion struct {
	Values []string
	Total  int
}

// completions holds the notes and folders at one head in the order they
// are offered, best first.
type completions struct {
	mu      sync.Mutex
	head    string
	notes   []completionEntry
	folders []completionEntry
	// patches counts the patches since the ranking was made.
	patches int
	// commits are the latest commits at commitsAt, for revisions and days.
	commits   []ActivityEntry
	commitsAt string
}

// completionEntry is a note or folder and the lowercase texts a prefix is
// matched against: its path, its last segment, its title.
type completionEntry struct {
	value             string
	path, name, title string
}

// matches reports whether the lowercase prefix starts the entry's path,
// last segment or title.
func (e *completionEntry) matches(prefix string) bool {
	return strings.HasPrefix(e.path, prefix) || strings.HasPrefix(e.name, prefix) ||
		(e.title != "" && strings.HasPrefix(e.title, prefix))
}

// CompleteNotes returns the note paths at HEAD that complete prefix: whose
// path, file name or title starts with it, case aside. The notes changed
// most recently and linked to most come first: a note's rank is its place
// among the notes by last change plus its backlinks against the most any
// note has, half each; the notes of the latest commits come first until
// the ranking is made anew (see completions). limit is at most
// MaxCompletions (0 for that many). It fails only when HEAD, the history
// index or the link graph cannot be read, or ctx is done while it waits
// for them.
func (w *Wiki) CompleteNotes(ctx context.Context, prefix string, limit int) (Completion, error) {
	c, err := w.completions(ctx)
	if err != nil {
		return Completion{}, err
	}
	return complete(c.notes, prefix, limit), nil
}

// CompleteFolders returns the folders at HEAD that complete prefix: whose
// path or last segment starts with it, case aside; the folders of the
// notes CompleteNotes ranks first come first. It fails as CompleteNotes.
func (w *Wiki) CompleteFolders(ctx context.Context, prefix string, limit int) (Completion, error) {
	c, err := w.completions(ctx)
	if err != nil {
		return Completion{}, err
	}
	return complete(c.folders, prefix, limit), nil
}

// CompleteTags returns the tags in use at HEAD that start with prefix (a
// leading # aside), case aside, the most used first. It returns the
// errors of Tags.
func (w *Wiki) CompleteTags(ctx context.Context, prefix string, limit int) (Completion, error) {
	tags, err := w.Tags(ctx, TagsRequest{Prefix: prefix})
	if err != nil {
		return Completion{}, err
	}
	slices.SortStableFunc(tags, func(a, b TagCount) int { return cmp.Compare(b.Count, a.Count) })
	out := Completion{Values: []string{}, Total: len(tags)}
	for _, t := range tags[:min(len(tags), completionLimit(limit))] {
		out.Values = append(out.Values, t.Tag)
	}
	return out, nil
}

// CompleteRevisions returns the latest MaxActivityLimit commits of the
// branch whose id starts with prefix, newest first, as short ids. It
// returns the errors of Activity.
func (w *Wiki) CompleteRevisions(ctx context.Context, prefix string, limit int) (Completion, error) {
	prefix = strings.ToLower(prefix)
	commits, err := w.latestCommits(ctx)
	if err != nil {
		return Completion{}, err
	}
	out := Completion{Values: []string{}}
	for _, c := range commits {
		if strings.HasPrefix(c.Commit, prefix) {
			out.Total++
			if len(out.Values) < completionLimit(limit) {
				out.Values = append(out.Values, c.Short)
			}
		}
	}
	return out, nil
}

// CompleteDates returns days, as YYYY-MM-DD, that start with prefix: today
// and yesterday in the wiki's time zone, then the days of the latest
// commits, newest first. It returns the errors of Activity.
func (w *Wiki) CompleteDates(ctx context.Context, prefix string, limit int) (Completion, error) {
	now := w.opts.Now().In(w.opts.Location)
	days := []string{now.Format(time.DateOnly), now.AddDate(0, 0, -1).Format(time.DateOnly)}
	commits, err := w.latestCommits(ctx)
	if err != nil {
		return Completion{}, err
	}
	for _, c := range commits {
		if d := c.Date.In(w.opts.Location).Format(time.DateOnly); !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	out := Completion{Values: []string{}}
	for _, d := range days {
		if strings.HasPrefix(d, prefix) {
			out.Total++
			if len(out.Values) < completionLimit(limit) {
				out.Values = append(out.Values, d)
			}
		}
	}
	return out, nil
}

// latestCommits returns the latest commits of the branch, newest first,
// read once per HEAD.
func (w *Wiki) latestCommits(ctx context.Context) ([]ActivityEntry, error) {
	head, err := w.store.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	c := &w.complete
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commitsAt == head.Commit && c.commits != nil {
		return c.commits, nil
	}
	res, err := w.Activity(ctx, ActivityRequest{Limit: MaxActivityLimit})
	if err != nil {
		return nil, err
	}
	c.commitsAt, c.commits = head.Commit, res.Commits
	return res.Commits, nil
}

func completionLimit(limit int) int {
	if limit <= 0 || limit > MaxCompletions {
		return MaxCompletions
	}
	return limit
}

// complete returns the entries that prefix matches, in their order.
func complete(entries []completionEntry, prefix string, limit int) Completion {
	prefix = strings.ToLower(strings.TrimLeft(prefix, "/"))
	limit = completionLimit(limit)
	out := Completion{Values: []string{}}
	for i := range entries {
		if prefix != "" && !entries[i].matches(prefix) {
			continue
		}
		out.Total++
		if len(out.Values) < limit {
			out.Values = append(out.Values, entries[i].value)
		}
	}
	return out
}

// completionPatches is how many times in a row the ranking is patched for
// a new HEAD before it is made anew, and completionPatchFiles the most
// files a patch takes.
const (
	completionPatches    = 32
	completionPatchFiles = 200
)

// completions returns the notes and folders at HEAD in their order, made
// from the history index (when each note last changed) and the link graph
// (its backlinks). For a HEAD a few commits on from the last ranking, the
// notes those commits changed are moved to the front (they are the newest)
// and the deleted ones dropped, without waiting for the indexes: a
// completion that follows a write stays quick. Every completionPatches
// patches, or for a larger change, the ranking is made anew.
func (w *Wiki) completions(ctx context.Context) (*completions, error) {
	head, err := w.store.Head(ctx)
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	c := &w.complete
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head == head.Commit && c.notes != nil {
		return c, nil
	}
	if c.notes != nil && c.head != "" && head.Commit != "" && c.patches < completionPatches {
		changes, err := w.store.Changes(ctx, c.head, head.Commit)
		if err == nil && len(changes) <= completionPatchFiles {
			c.patch(w.graph, noteMoves(changes))
			c.head = head.Commit
			c.patches++
			return c, nil
		}
	}
	if err := c.rank(ctx, w); err != nil {
		return nil, err
	}
	return c, nil
}

// patch moves the notes changed to the front of the ranking, newest
// first, and drops the deleted ones; their folders come first too. A title
// is the graph's, when it has the note already. The caller holds mu.
func (c *completions) patch(g Graph, moves []NoteMove) {
	gone := make(map[string]bool, len(moves))
	var front []completionEntry
	for _, m := range moves {
		gone[m.Path] = true
		if m.Change == ChangeDeleted {
			continue
		}
		e := completionEntry{value: m.Path, path: strings.ToLower(m.Path), name: strings.ToLower(path.Base(m.Path))}
		if ref, ok := g.Lookup(m.Path); ok {
			e.title = strings.ToLower(ref.Title)
		}
		front = append(front, e)
	}
	notes := make([]completionEntry, 0, len(c.notes)+len(front))
	notes = append(notes, front...)
	for _, e := range c.notes {
		if !gone[e.value] {
			notes = append(notes, e)
		}
	}
	c.notes = notes
	var folders []completionEntry
	seen := map[string]bool{}
	for _, e := range front {
		for dir := path.Dir(e.value); dir != "." && !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			folders = append(folders, completionEntry{value: dir, path: strings.ToLower(dir), name: strings.ToLower(path.Base(dir))})
		}
	}
	for _, f := range c.folders {
		if !seen[f.value] {
			folders = append(folders, f)
		}
	}
	c.folders = folders
}

// rank makes the ranking at HEAD anew. The caller holds mu.
func (c *completions) rank(ctx context.Context, w *Wiki) error {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return err
	}
	var recent []recentItem
	if head.Commit != "" {
		if recent, err = w.recentItems(ctx, head.Commit); err != nil {
			return err
		}
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return err
	}
	hubs := g.Hubs(HubInDegree, "", 0)
	type linked struct {
		title string
		in    int
	}
	byPath := make(map[string]linked, len(hubs))
	most := 0
	for _, h := range hubs {
		byPath[h.Path] = linked{h.Title, h.InDegree}
		most = max(most, h.InDegree)
	}
	type ranked struct {
		completionEntry
		score float64
	}
	all := make([]ranked, 0, len(recent))
	for i, it := range recent {
		p := notePathOf(it.file)
		l := byPath[p]
		score := 1 - float64(i)/float64(len(recent))
		if most > 0 {
			score += math.Log1p(float64(l.in)) / math.Log1p(float64(most))
		}
		all = append(all, ranked{completionEntry{value: p, path: strings.ToLower(p),
			name: strings.ToLower(path.Base(p)), title: strings.ToLower(l.title)}, score})
	}
	slices.SortFunc(all, func(a, b ranked) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		return strings.Compare(a.value, b.value)
	})
	notes := make([]completionEntry, len(all))
	var folders []completionEntry
	seen := map[string]bool{}
	for i, r := range all {
		notes[i] = r.completionEntry
		for dir := path.Dir(r.value); dir != "." && !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			folders = append(folders, completionEntry{value: dir, path: strings.ToLower(dir), name: strings.ToLower(path.Base(dir))})
		}
	}
	c.head, c.notes, c.folders, c.patches = head.Commit, notes, folders, 0
	return nil
}
