package wiki

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// RestoreRequest brings back a note's content from an older version.
type RestoreRequest struct {
	Path string
	// Version is the revision whose content to bring back. Empty restores
	// a deleted note's last version.
	Version string
	Mutation
}

// Restore writes the note's content at Version as a new commit; nothing of
// the history is reset or rewritten. A note renamed since Version is
// restored at its current path, and a deleted note at its old path. With
// ExpectedVersion, the note must still be at that version. It returns INVALID_PATH,
// INVALID_PARAMS (no version for a note that exists), NOT_FOUND (no such
// note at the version, no history), AMBIGUOUS (a short sha matching several
// commits), CONFLICT, LOCAL_CHANGES, READ_ONLY and TOO_LARGE.
func (w *Wiki) Restore(ctx context.Context, req RestoreRequest) (*Result, error) {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	src, err := w.restoreSource(ctx, head.Commit, req)
	if err != nil {
		return nil, err
	}
	m := req.Mutation
	m.Message = strings.TrimSpace(m.Message + "\n\nRestored from " + src.commit + ".")
	res, err := w.mutate(ctx, "restore", m, func(ctx context.Context, t *txn) error {
		stage := t.stage
		if src.deleted {
			stage = t.stageDeleted
		}
		s, err := stage(ctx, src.notePath+src.ext)
		if err != nil {
			return err
		}
		if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
			return err
		}
		t.verb("restore")
		return t.put(s, src.content)
	})
	if err == nil && len(res.Changes) == 0 {
		res.Summary = "the note already has the content of " + shortID(src.commit)
	}
	return res, err
}

// restoreSource is the content a restore brings back and where it goes.
type restoreSource struct {
	notePath, ext string // the target: the note's current path, or its old one
	deleted       bool   // the note is not at HEAD
	commit        string // where the content comes from
	content       []byte
}

// stageDeleted stages a deleted note's file, path (as history has it), to
// bring it back: under its old name, with the bytes git had, in its folder
// as HEAD spells it when that folder now holds notes only under another
// normalization form.
func (t *txn) stageDeleted(ctx context.Context, path string) (*staged, error) {
	notePath, ext, err := note.CleanPath(path)
	if err != nil {
		return nil, err
	}
	if i := strings.LastIndexByte(notePath, '/'); i >= 0 {
		dir, err := t.w.fold.spellFolder(ctx, t.w.store, t.snap, notePath[:i])
		if err != nil {
			return nil, err
		}
		notePath = dir + notePath[i:]
	}
	if s := t.stagedAt(notePath, ext); s != nil {
		return s, nil
	}
	return t.add(&staged{file: note.FileName(notePath, ext), notePath: notePath}), nil
}

// restoreSource finds the content to restore: the note at the requested
// version under any of the names it had, or a deleted note's last version.
func (w *Wiki) restoreSource(ctx context.Context, head string, req RestoreRequest) (*restoreSource, error) {
	notePath, file, exists, err := w.historyFile(ctx, head, req.Path)
	if err != nil {
		return nil, err
	}
	_, ext, _ := note.SplitFileName(file)
	src := &restoreSource{notePath: notePath, ext: ext, deleted: !exists}
	if req.Version == "" {
		if exists {
			return nil, Errorf(CodeInvalidParams, "note %q exists; say which version to restore", notePath).
				WithHint("pick a commit from {history} and pass it as {version}")
		}
		revs, err := w.hist.Log(ctx, head, file, false)
		if err != nil {
			return nil, err
		}
		if len(revs) == 0 || revs[0].Kind != ChangeDeleted {
			return nil, Errorf(CodeNotFound, "no deletion of %q in the history", notePath)
		}
		src.commit = revs[0].ID
		if len(revs[0].Parents) > 0 {
			src.commit = revs[0].Parents[0]
		}
		src.content, err = w.store.ReadBlob(ctx, revs[0].OldBlob)
		return src, err
	}
	if src.commit, err = w.resolve(ctx, req.Version); err != nil {
		return nil, err
	}
	revs, err := w.hist.Log(ctx, head, file, true)
	if err != nil {
		return nil, err
	}
	name, content, err := w.fileAt(ctx, src.commit, fileNames(file, revs))
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, Errorf(CodeNotFound, "note %q did not exist at %s", notePath, shortID(src.commit)).
			WithHint("{history} lists the commits where it exists")
	}
	src.content = content
	return src, nil
}
