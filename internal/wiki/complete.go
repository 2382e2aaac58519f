package wiki

import (
	"cmp"
	"context"
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
// note has, half each. limit is at most MaxCompletions (0 for that many).
// The order is computed once per HEAD.
func (w *Wiki) CompleteNotes(ctx context.Context, prefix string, limit int) (Completion, error) {
	c, err := w.completions(ctx)
	if err != nil {
		return Completion{}, err
	}
	return complete(c.notes, prefix, limit), nil
}

// CompleteFolders returns the folders at HEAD that complete prefix: whose
// path or last segment starts with it, case aside; the folders of the
// notes CompleteNotes ranks first come first.
func (w *Wiki) CompleteFolders(ctx context.Context, prefix string, limit int) (Completion, error) {
	c, err := w.completions(ctx)
	if err != nil {
		return Completion{}, err
	}
	return complete(c.folders, prefix, limit), nil
}

// CompleteTags returns the tags in use at HEAD that start with prefix (a
// leading # aside), case aside, the most used first.
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

// CompleteRevisions returns the commits of the branch whose short id
// starts with prefix, newest first, as short ids; with an empty prefix, the
// latest commits.
func (w *Wiki) CompleteRevisions(ctx context.Context, prefix string, limit int) (Completion, error) {
	prefix = strings.ToLower(prefix)
	res, err := w.Activity(ctx, ActivityRequest{Limit: MaxActivityLimit})
	if err != nil {
		return Completion{}, err
	}
	out := Completion{Values: []string{}}
	for _, c := range res.Commits {
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
// commits, newest first.
func (w *Wiki) CompleteDates(ctx context.Context, prefix string, limit int) (Completion, error) {
	now := w.opts.Now().In(w.opts.Location)
	days := []string{now.Format(time.DateOnly), now.AddDate(0, 0, -1).Format(time.DateOnly)}
	res, err := w.Activity(ctx, ActivityRequest{Limit: MaxActivityLimit})
	if err != nil {
		return Completion{}, err
	}
	for _, c := range res.Commits {
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

// completions returns the notes and folders at HEAD in their order, made
// once per HEAD from the history index (when each note last changed) and
// the link graph (its backlinks).
func (w *Wiki) completions(ctx context.Context) (*completions, error) {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	c := &w.complete
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.head == head.Commit && c.notes != nil {
		return c, nil
	}
	var recent []recentItem
	if head.Commit != "" {
		if recent, err = w.recentItems(ctx, head.Commit); err != nil {
			return nil, err
		}
	}
	g, err := w.graphAt(ctx)
	if err != nil {
		return nil, err
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
	c.head, c.notes, c.folders = head.Commit, notes, folders
	return c, nil
}
