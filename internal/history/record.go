package history

import (
	"bytes"
	"encoding/hex"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// oid is a git object id.
type oid [20]byte

// parseOID parses a full hex object id.
func parseOID(s string) (oid, bool) {
	var id oid
	if len(s) != 40 {
		return id, false
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return id, false
	}
	return id, true
}

func (id oid) String() string { return hex.EncodeToString(id[:]) }

func (id oid) isZero() bool { return id == oid{} }

// compareOID orders ids by their bytes.
func compareOID(a, b oid) int { return bytes.Compare(a[:], b[:]) }

// hexOrEmpty is the id's hex, or "" for the zero id.
func (id oid) hexOrEmpty() string {
	if id.isZero() {
		return ""
	}
	return id.String()
}

// person is an author or committer.
type person struct {
	name, email string
	when        int64 // Unix seconds
	tz          int32 // offset east of UTC, in seconds
}

func (p person) signature() wiki.Signature {
	return wiki.Signature{Name: p.name, Email: p.email, When: p.time()}
}

func (p person) time() time.Time {
	return time.Unix(p.when, 0).In(zone(p.tz))
}

// zones caches a location per UTC offset: a wiki's commits share a few.
var zones sync.Map // int32 -> *time.Location

func zone(offset int32) *time.Location {
	if loc, ok := zones.Load(offset); ok {
		return loc.(*time.Location)
	}
	loc, _ := zones.LoadOrStore(offset, time.FixedZone("", int(offset)))
	return loc.(*time.Location)
}

func personOf(s wiki.Signature) person {
	_, off := s.When.Zone()
	return person{name: s.Name, email: s.Email, when: s.When.Unix(), tz: int32(off)}
}

// commitRec is one commit as the index keeps it.
type commitRec struct {
	id oid
	// parents are indexes into Index.commits, in the commit's order. A
	// parent that is missing from the repository (a shallow clone) is left
	// out, as git treats a shallow commit as a root.
	parents           []int32
	author, committer person
	subject           string
	tool, client      string
	// changes are the files that differ from the first parent (from the
	// empty tree for a root), sorted by path.
	changes []changeRec
	// missing are the objects, sorted, that building the record needed and
	// the repository lacked (a partial clone): the line counts and rename
	// searches that needed them are unknown.
	missing []oid
	// changesUnknown is set when a tree the diff needs is missing (a
	// treeless clone): changes is then empty, and nothing is known of the
	// files the commit changed.
	changesUnknown bool
}

// changeRec is one changed file of a commit.
type changeRec struct {
	path int32 // path id
	// old and new are the blobs before (in the first parent) and after;
	// zero when absent.
	old, new oid
	// from is, for an added file, the path id of the file this commit
	// deleted that it was renamed from; -1 otherwise.
	from int32
	// add and del count the lines added and deleted against old (against
	// from's content for a rename: radd and rdel); -1 for a binary file.
	add, del, radd, rdel int32
	// flags say what a missing blob left unknown.
	flags changeFlags
	// side holds, for a merge, the file as parents 2..n have it.
	side []sideRec
}

// changeFlags say what of a change is unknown because a blob it needs is
// missing from the repository.
type changeFlags uint8

const (
	// flagLinesUnknown: add and del are unknown (old or new is missing).
	flagLinesUnknown changeFlags = 1 << iota
	// flagRenameLinesUnknown: radd and rdel are unknown (the rename
	// source's blob or new is missing).
	flagRenameLinesUnknown
	// flagRenameUnknown: an added file without a rename source, where a
	// missing blob kept the search to equal blob ids.
	flagRenameUnknown
)

// sideRec is a changed file of a merge as one of the merge's other parents
// has it.
type sideRec struct {
	blob oid // the blob at the same path in that parent; zero when absent
	// from is, when the parent has no file at the path, the path id of the
	// file it was renamed from between that parent and the merge; -1 if
	// none. fromBlob is that file's blob in the parent.
	from     int32
	fromBlob oid
}

func (c *commitRec) isMerge() bool { return len(c.parents) > 1 }

// change returns the change of path id p, or nil.
func (c *commitRec) change(paths []string, p int32) *changeRec {
	name := paths[p]
	lo, hi := 0, len(c.changes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if paths[c.changes[m].path] < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(c.changes) && c.changes[lo].path == p {
		return &c.changes[lo]
	}
	return nil
}

// kind says what the change did to its file.
func (ch *changeRec) kind() wiki.ChangeKind {
	switch {
	case ch.old.isZero() && ch.from >= 0:
		return wiki.ChangeRenamed
	case ch.old.isZero():
		return wiki.ChangeAdded
	case ch.new.isZero():
		return wiki.ChangeDeleted
	}
	return wiki.ChangeModified
}

// summary converts a commit for the wiki.
func (x *Index) summary(c int32) wiki.CommitSummary {
	r := &x.commits[c]
	s := wiki.CommitSummary{
		ID: r.id.String(), Author: r.author.signature(), Committer: r.committer.signature(),
		Subject: r.subject, Tool: r.tool, Client: r.client,
		Parents:      make([]string, len(r.parents)),
		FilesUnknown: r.changesUnknown,
	}
	for i, p := range r.parents {
		s.Parents[i] = x.commits[p].id.String()
	}
	return s
}

// fileRevision converts a change for the wiki.
func (x *Index) fileRevision(r *commitRec, ch *changeRec) wiki.FileRevision {
	f := wiki.FileRevision{
		Path: x.paths[ch.path], Kind: ch.kind(),
		OldBlob: ch.old.hexOrEmpty(), NewBlob: ch.new.hexOrEmpty(),
		Additions: int(ch.add), Deletions: int(ch.del),
		LinesUnknown:  ch.flags&flagLinesUnknown != 0,
		RenameUnknown: ch.flags&flagRenameUnknown != 0,
	}
	if f.Kind == wiki.ChangeRenamed {
		f.OldPath = x.paths[ch.from]
		f.Additions, f.Deletions = int(ch.radd), int(ch.rdel)
		f.LinesUnknown = ch.flags&flagRenameLinesUnknown != 0
		if src := r.change(x.paths, ch.from); src != nil {
			f.OldBlob = src.old.hexOrEmpty()
		}
	}
	return f
}

// subjectOf returns the first paragraph of a message on one line, as git's
// %s does: leading blank lines skipped, the paragraph's lines right-trimmed
// and joined with spaces.
func subjectOf(msg string) string {
	var parts []string
	for _, line := range strings.Split(msg, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			if len(parts) > 0 {
				break
			}
			continue
		}
		parts = append(parts, line)
	}
	return strings.Join(parts, " ")
}

// trailers returns the Wiki-Tool and Wiki-Client trailers of a message's
// last paragraph.
func trailers(msg string) (tool, client string) {
	msg = strings.TrimRight(msg, "\n ")
	if i := strings.LastIndex(msg, "\n\n"); i >= 0 {
		msg = msg[i+2:]
	} else {
		return "", "" // a message of one paragraph has no trailers
	}
	for _, line := range strings.Split(msg, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "wiki-tool":
			tool = strings.TrimSpace(v)
		case "wiki-client":
			client = strings.TrimSpace(v)
		}
	}
	return tool, client
}
