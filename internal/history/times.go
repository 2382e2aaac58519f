package history

import (
	"context"

	"github.com/wikid/wikid/internal/wiki"
)

// timesOnePass is how many files make Times walk all of history once
// rather than follow each file's history.
const timesOnePass = 64

// Times returns when each of files, as it is at head, was created and last
// changed: the committer times of the oldest and newest commits that `git
// log --follow -- file` lists, with the newest one's id and author. For many files it computes them in one pass
// over head's history, oldest commit first: a change sets the file's
// modified time, and its created time unless it has one; a rename gives the
// new file the created time of the old. Files without history are left
// out. With files nil it returns every file whose last such commit did not
// delete it. It returns an error wrapping wiki.ErrNotFound when head was
// never synced.
func (x *Index) Times(ctx context.Context, head string, files []string) (map[string]wiki.FileTimes, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	h, err := x.lookup(head)
	if err != nil {
		return nil, err
	}
	out := make(map[string]wiki.FileTimes, len(files))
	if files != nil && len(files) <= timesOnePass {
		for _, f := range files {
			p, ok := x.pathID[f]
			if !ok {
				continue
			}
			if es := x.followLog(h, p); len(es) > 0 {
				out[f] = x.fileTimes(es[len(es)-1].c, es[0].c)
			}
		}
		return out, nil
	}
	created := make([]int32, len(x.paths)) // the commit, plus one; 0 for none
	modified := make([]int32, len(x.paths))
	w := x.walkFrom(h)
	for _, c := range w.seq {
		rec := &x.commits[c]
		if rec.isMerge() {
			continue
		}
		for i := range rec.changes {
			ch := &rec.changes[i]
			modified[ch.path] = c + 1
			switch {
			case ch.old.isZero() && ch.from >= 0 && created[ch.from] != 0:
				created[ch.path] = created[ch.from]
			case ch.old.isZero() && ch.from >= 0, created[ch.path] == 0:
				created[ch.path] = c + 1
			}
		}
	}
	if files == nil {
		for p, m := range modified {
			if m != 0 && !x.commits[m-1].change(x.paths, int32(p)).new.isZero() {
				out[x.paths[p]] = x.fileTimes(created[p]-1, m-1)
			}
		}
		return out, nil
	}
	for _, f := range files {
		p, ok := x.pathID[f]
		if !ok || modified[p] == 0 {
			continue
		}
		out[f] = x.fileTimes(created[p]-1, modified[p]-1)
	}
	return out, nil
}

// fileTimes returns the times of a file created by commit c and last
// changed by commit m.
func (x *Index) fileTimes(c, m int32) wiki.FileTimes {
	last := &x.commits[m]
	return wiki.FileTimes{
		Created: x.commits[c].committer.time(), Modified: last.committer.time(),
		Commit: last.id.String(), Author: last.author.signature(),
	}
}
