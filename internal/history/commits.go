package history

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Commits returns a page of the commits reachable from head that match f,
// newest first in `git log` order: at most limit after commit `after` (""
// for the newest), the number that match in all, and the last commit of the
// page when more follow. A rename is one file with its old path, not a
// deletion and an addition. It returns an error wrapping wiki.ErrNotFound
// when head was never synced or after is not in head's history.
func (x *Index) Commits(ctx context.Context, head string, f wiki.CommitFilter, after string, limit int) ([]wiki.ChangeSet, int, string, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, "", err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.lookup(head)
	if err != nil {
		return nil, 0, "", err
	}
	w := x.walkFrom(h)
	start := int32(len(w.seq) - 1)
	if after != "" {
		a, err := x.lookup(after)
		if err == nil && w.rankOf(a) < 0 {
			err = wiki.Errorf(wiki.CodeNotFound, "commit %s is not in the history of %s", after, head)
		}
		if err != nil {
			return nil, 0, "", err
		}
		start = w.rankOf(a) - 1
	}
	m := newMatcher(x, f)
	page := []wiki.ChangeSet{}
	total, next := 0, ""
	for r := int32(len(w.seq) - 1); r >= 0; r-- {
		c := w.seq[r]
		if !m.match(&x.commits[c]) {
			continue
		}
		total++
		switch {
		case r > start:
		case len(page) < limit:
			page = append(page, x.changeSet(c))
		case next == "" && len(page) > 0:
			next = page[len(page)-1].ID
		}
	}
	return page, total, next, nil
}

// changeSet converts a commit and its changes for the wiki, a rename as
// one file.
func (x *Index) changeSet(c int32) wiki.ChangeSet {
	rec := &x.commits[c]
	sources := map[int32]bool{}
	for i := range rec.changes {
		if ch := &rec.changes[i]; ch.old.isZero() && ch.from >= 0 {
			sources[ch.from] = true
		}
	}
	cs := wiki.ChangeSet{CommitSummary: x.summary(c), Files: make([]wiki.FileRevision, 0, len(rec.changes))}
	for i := range rec.changes {
		ch := &rec.changes[i]
		if ch.new.isZero() && sources[ch.path] {
			continue
		}
		cs.Files = append(cs.Files, x.fileRevision(rec, ch))
	}
	return cs
}

// matcher tests commits against a filter.
type matcher struct {
	x      *Index
	f      wiki.CommitFilter
	since  int64
	until  int64
	folder string
	files  map[string]bool
}

func newMatcher(x *Index, f wiki.CommitFilter) *matcher {
	m := &matcher{x: x, f: f, since: -1 << 62, until: 1 << 62}
	if !f.Since.IsZero() {
		m.since = f.Since.Unix()
	}
	if !f.Until.IsZero() {
		m.until = f.Until.Unix()
	}
	if f.Folder != "" {
		m.folder = strings.TrimSuffix(f.Folder, "/") + "/"
	}
	if len(f.Files) > 0 {
		m.files = map[string]bool{}
		for _, file := range f.Files {
			m.files[file] = true
		}
	}
	return m
}

func (m *matcher) match(c *commitRec) bool {
	if c.committer.when < m.since || c.committer.when > m.until {
		return false
	}
	if m.f.Tool != "" && c.tool != m.f.Tool {
		return false
	}
	if m.f.Client != "" && c.client != m.f.Client && !strings.HasPrefix(c.client, m.f.Client+"/") {
		return false
	}
	if m.f.Author != "" && !containsFold(c.author.name+" <"+c.author.email+">", m.f.Author) {
		return false
	}
	if m.folder == "" && m.files == nil {
		return true
	}
	for i := range c.changes {
		p := m.x.paths[c.changes[i].path]
		if (m.folder == "" || strings.HasPrefix(p, m.folder)) && (m.files == nil || m.files[p]) {
			return true
		}
	}
	return false
}

// containsFold reports whether sub occurs in s, ignoring case.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}
