package wiki

import (
	"context"
	"errors"
	"fmt"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/textdiff"
)

// txn stages the changes of one mutation on top of a HEAD snapshot. Later
// steps of a batch see the earlier steps' results.
type txn struct {
	w    *Wiki
	head Head
	snap Snapshot

	files    map[string]*staged // by file path
	byNote   map[string]*staged // by note path
	verbs    []string
	metadata *MetadataChange
	// subjectLine is the commit subject of a single step that names more
	// than one note ("move: a -> b").
	subjectLine string
	// movedFrom maps the new file of a moved note to its old file, and
	// movedTo the old file to the new one.
	movedFrom, movedTo map[string]string
	// proposal, when not nil, is the proposal the change goes to instead
	// of the branch.
	proposal *txnProposal
}

// staged is one file as the transaction sees it.
type staged struct {
	file     string
	notePath string
	base     File   // the file at HEAD; Blob "" when it did not exist
	old      []byte // content at HEAD
	content  []byte // content now; nil when absent
}

func newTxn(w *Wiki, head Head, snap Snapshot) *txn {
	return &txn{w: w, head: head, snap: snap,
		files: make(map[string]*staged), byNote: make(map[string]*staged)}
}

// stage returns the staged file for a caller's note path: the existing note
// (with the fallback that ignores case and Unicode normalization) or, when
// there is none, a new file, named as newNotePath says.
func (t *txn) stage(ctx context.Context, path string) (*staged, error) {
	notePath, ext, err := note.CleanPath(path)
	if err != nil {
		return nil, err
	}
	if s := t.stagedAt(notePath, ext); s != nil {
		return s, nil
	}
	f, err := t.w.locate(ctx, t.snap, notePath, ext)
	switch {
	case err == nil:
		if s, ok := t.files[f.Path]; ok {
			return s, nil
		}
		f, content, err := t.snap.Read(ctx, f.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f.Path, err)
		}
		return t.add(&staged{file: f.Path, notePath: notePathOf(f.Path), base: f, old: content, content: content}), nil
	case errors.Is(err, ErrNotFound):
		np, err := t.w.newNotePath(ctx, t.snap, notePath)
		if err != nil {
			return nil, err
		}
		if s := t.stagedAt(np, ext); s != nil {
			return s, nil // created earlier in the batch
		}
		return t.add(&staged{file: note.FileName(np, ext), notePath: np}), nil
	default:
		return nil, err
	}
}

// stagedAt returns the file staged for notePath with ext ("" for any), or
// nil.
func (t *txn) stagedAt(notePath, ext string) *staged {
	if s, ok := t.byNote[notePath]; ok && (ext == "" || s.file == note.FileName(notePath, ext)) {
		return s
	}
	if s, ok := t.files[note.FileName(notePath, ext)]; ok {
		return s
	}
	return nil
}

// existing is stage for a note that must exist now.
func (t *txn) existing(ctx context.Context, path string) (*staged, error) {
	s, err := t.stage(ctx, path)
	if err != nil {
		return nil, err
	}
	if s.content == nil {
		return nil, Errorf(CodeNotFound, "no note %q", s.notePath).
			WithHint("check the path with {list}, or create the note with {write}")
	}
	return s, nil
}

func (t *txn) add(s *staged) *staged {
	t.files[s.file] = s
	t.byNote[s.notePath] = s
	return s
}

// put sets a staged file's new content, enforcing the size limit.
func (t *txn) put(s *staged, content []byte) error {
	if int64(len(content)) > t.w.opts.MaxNoteSize {
		return Errorf(CodeTooLarge, "note %q would be %d bytes; the limit is %d", s.notePath, len(content), t.w.opts.MaxNoteSize).
			WithHint("split the note into smaller notes")
	}
	if content == nil {
		content = []byte{}
	}
	s.content = content
	return nil
}

// verb records what a step did, for the commit subject.
func (t *txn) verb(v string) { t.verbs = append(t.verbs, v) }

// baseVersions maps every touched file to its version at HEAD.
func (t *txn) baseVersions() map[string]string {
	m := make(map[string]string, len(t.files))
	for f, s := range t.files {
		m[f] = s.base.Blob
	}
	return m
}

// version is the staged file's current version ("" when absent).
func (s *staged) version() string {
	if s.content == nil {
		return ""
	}
	if s.base.Blob != "" && string(s.content) == string(s.old) {
		return s.base.Blob
	}
	return BlobID(s.content)
}

func (s *staged) action() Action {
	switch {
	case s.base.Blob == "":
		return ActionCreated
	case s.content == nil:
		return ActionDeleted
	default:
		return ActionModified
	}
}

func (s *staged) fileDiff() textdiff.FileDiff {
	d := textdiff.FileDiff{Old: s.old, New: s.content}
	if s.base.Blob != "" {
		d.OldPath = s.file
	}
	if s.content != nil {
		d.NewPath = s.file
	}
	return d
}

// change returns a changed file's diff and what happened to its note. The
// new file of a moved note is one rename from its old file, and the old
// file then has no change of its own (ok is false).
func (t *txn) change(s *staged) (d textdiff.FileDiff, c NoteChange, ok bool) {
	if to, moved := t.movedTo[s.file]; moved && s.content == nil && t.files[to].content != nil && t.files[to].base.Blob == "" {
		return d, c, false
	}
	d = s.fileDiff()
	// Version is set by finish: from the commit, which hashes the content
	// anyway, or for a dry run here.
	c = NoteChange{Path: s.notePath, File: s.file, Action: s.action(), OldVersion: s.base.Blob}
	old := s.old
	if from, moved := t.movedFrom[s.file]; moved && s.base.Blob == "" && t.files[from].content == nil {
		src := t.files[from]
		d.OldPath, d.Old = src.file, src.old
		c.Action, c.From, c.OldVersion, old = ActionMoved, src.notePath, src.base.Blob, src.old
	}
	st := textdiff.Count(old, s.content)
	c.Additions, c.Deletions = st.Additions, st.Deletions
	if s.content != nil {
		// Through the note cache: the derived stores take the same parse
		// when they apply the commit.
		c.Title = t.w.parse(s.notePath, File{Path: s.file, Blob: s.version(), Size: int64(len(s.content))}, s.content).Title
	}
	return d, c, true
}
