package wiki

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/wikid/wikid/internal/textdiff"
)

// DefaultDiffContext is how many unchanged lines a diff shows around each
// change unless asked otherwise, as in git.
const DefaultDiffContext = 3

// DiffRequest compares two versions of a note or of the whole wiki.
type DiffRequest struct {
	// Path is the note to compare; "" compares every file.
	Path string
	// From and To are revisions (full or short sha, HEAD~N, a branch). To
	// defaults to HEAD. Without From: the change To made (against its
	// first parent); for a note with neither, its last change.
	From, To string
	// Context is the number of unchanged lines around each change: 0 means
	// DefaultDiffContext, a negative number none.
	Context int
}

// DiffResult is a unified diff between two commits with its stats.
type DiffResult struct {
	// From is the older commit, "" for the empty tree; To the newer one.
	From  string
	To    string
	Files []DiffFile
	// Additions and Deletions count lines over all files.
	Additions int
	Deletions int
	// Diff is git-compatible: `git apply` reproduces To's files from
	// From's. Binary files are listed in Files but left out of it.
	Diff string
	// LinesUnknown is set when a file's versions are missing from the
	// repository (a partial clone): it is listed in Files but left out of
	// Diff and of the counts.
	LinesUnknown bool
}

// DiffFile is one changed file of a diff.
type DiffFile struct {
	// Path is the note path (the file for a file that is not a note).
	Path    string
	File    string
	OldFile string
	Change  ChangeKind
	// Additions and Deletions are -1 for a binary file.
	Additions int
	Deletions int
	Binary    bool
	// LinesUnknown is set, with Additions and Deletions 0, when a version
	// of the file is missing from the repository (a partial clone).
	LinesUnknown bool
	// Hunks are the file's part of Diff as structure; none for a file
	// left out of it, or with no line changed (a pure rename).
	Hunks []DiffHunk
}

// versionDiff is the two versions of one file; unknown when one of them is
// missing from the repository.
type versionDiff struct {
	textdiff.FileDiff
	unknown bool
}

// Diff returns the unified diff and line counts between two versions of a
// note (followed across renames), or between two commits for every file,
// renames detected as `git diff` detects them. Between two commits, a file
// whose versions are missing from the repository (a partial clone) is
// listed with LinesUnknown; for a note, a missing version is NOT_FOUND,
// with a hint on how to fetch it. It returns INVALID_PATH, NOT_FOUND (an
// unknown revision, or a note at neither version) and AMBIGUOUS (a short
// sha matching several commits).
func (w *Wiki) Diff(ctx context.Context, req DiffRequest) (*DiffResult, error) {
	head, err := w.syncHistory(ctx)
	if err != nil {
		return nil, err
	}
	if head.Commit == "" && req.To == "" {
		return nil, Errorf(CodeNotFound, "the wiki has no commits yet, so there is nothing to compare")
	}
	res := &DiffResult{To: head.Commit, Files: []DiffFile{}}
	if req.To != "" {
		if res.To, err = w.resolve(ctx, req.To); err != nil {
			return nil, err
		}
	}
	var diffs []versionDiff
	if req.Path != "" {
		diffs, err = w.noteDiff(ctx, head.Commit, req, res)
	} else {
		if res.From, err = w.fromOf(ctx, req.From, res.To); err == nil {
			diffs, err = w.treeDiff(ctx, res.From, res.To)
		}
	}
	if err != nil {
		return nil, err
	}
	var text []textdiff.FileDiff
	var shown []int // the index in res.Files of each file of text
	for _, d := range diffs {
		f := diffFile(d.FileDiff)
		if d.unknown {
			f.Binary, f.Additions, f.Deletions, f.LinesUnknown = false, 0, 0, true
			res.LinesUnknown = true
			res.Files = append(res.Files, f)
			continue
		}
		if f.Binary {
			res.Files = append(res.Files, f)
			continue
		}
		res.Additions += f.Additions
		res.Deletions += f.Deletions
		res.Files = append(res.Files, f)
		text = append(text, d.FileDiff)
		shown = append(shown, len(res.Files)-1)
	}
	ctxLines := req.Context
	if ctxLines == 0 {
		ctxLines = DefaultDiffContext
	}
	var hunks [][]textdiff.Hunk
	res.Diff, hunks = textdiff.UnifiedHunks(text, max(ctxLines, 0))
	for i, h := range hunks {
		res.Files[shown[i]].Hunks = diffHunks(h)
	}
	return res, nil
}

// resolve turns a revision into a commit id, with the errors of Read.
func (w *Wiki) resolve(ctx context.Context, rev string) (string, error) {
	id, err := w.store.ResolveRevision(ctx, rev)
	if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrAmbiguous) {
		return "", fmt.Errorf("resolve version %q: %w", rev, err)
	}
	return id, err
}

// fromOf resolves the older revision, by default the first parent of to
// ("" for a root commit).
func (w *Wiki) fromOf(ctx context.Context, from, to string) (string, error) {
	if from != "" {
		return w.resolve(ctx, from)
	}
	info, err := w.store.CommitInfo(ctx, to)
	if err != nil || len(info.Parents) == 0 {
		return "", err
	}
	return info.Parents[0], nil
}

// treeDiff returns the file diffs between two commits, renames paired; a
// file with a version missing from the repository is marked unknown.
func (w *Wiki) treeDiff(ctx context.Context, from, to string) ([]versionDiff, error) {
	changes, err := w.store.Changes(ctx, from, to)
	if err != nil {
		return nil, err
	}
	renames, err := w.hist.Renames(ctx, changes)
	if err != nil {
		return nil, err
	}
	sources := map[string]string{} // old path -> its blob
	for _, ch := range changes {
		if ch.NewBlob == "" {
			sources[ch.Path] = ch.OldBlob
		}
	}
	renamed := map[string]bool{}
	for _, old := range renames {
		renamed[old] = true
	}
	var out []versionDiff
	read := func(d *versionDiff, blob string) ([]byte, error) {
		b, err := w.store.ReadBlob(ctx, blob)
		if errors.Is(err, ErrMissingObject) {
			d.unknown = true
			return nil, nil
		}
		return b, err
	}
	for _, ch := range changes {
		if renamed[ch.Path] && ch.NewBlob == "" {
			continue // shown with its new path
		}
		d := versionDiff{}
		oldPath, oldBlob := ch.Path, ch.OldBlob
		if old, ok := renames[ch.Path]; ok {
			oldPath, oldBlob = old, sources[old]
		}
		if oldBlob != "" {
			d.OldPath = oldPath
			if d.Old, err = read(&d, oldBlob); err != nil {
				return nil, err
			}
		}
		if ch.NewBlob != "" {
			d.NewPath = ch.Path
			if d.New, err = read(&d, ch.NewBlob); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return diffName(out[i]) < diffName(out[j]) })
	return out, nil
}

func diffName(d versionDiff) string {
	if d.NewPath != "" {
		return d.NewPath
	}
	return d.OldPath
}

// noteDiff returns the diff of one note and sets res.From and res.To.
func (w *Wiki) noteDiff(ctx context.Context, head string, req DiffRequest, res *DiffResult) ([]versionDiff, error) {
	notePath, file, _, err := w.historyFile(ctx, head, req.Path)
	if err != nil {
		return nil, err
	}
	revs, err := w.hist.Log(ctx, head, file, true)
	if err != nil {
		return nil, err
	}
	names := fileNames(file, revs)
	switch {
	case req.From != "":
		if res.From, err = w.resolve(ctx, req.From); err != nil {
			return nil, err
		}
	case req.To == "":
		if len(revs) == 0 {
			return nil, Errorf(CodeNotFound, "note %q has no history", notePath)
		}
		res.To = revs[0].ID
		if len(revs[0].Parents) > 0 {
			res.From = revs[0].Parents[0]
		}
	default:
		if res.From, err = w.fromOf(ctx, "", res.To); err != nil {
			return nil, err
		}
	}
	d := textdiff.FileDiff{}
	if d.OldPath, d.Old, err = w.fileAt(ctx, res.From, names); err != nil {
		return nil, err
	}
	if d.NewPath, d.New, err = w.fileAt(ctx, res.To, names); err != nil {
		return nil, err
	}
	if d.OldPath == "" && d.NewPath == "" {
		return nil, Errorf(CodeNotFound, "note %q exists at neither version", notePath).
			WithHint("{history} lists the commits where it exists")
	}
	return []versionDiff{{FileDiff: d}}, nil
}

// fileNames returns the names of a note's file, newest first, to find it
// at an older version: file, and the name before each rename in revs, the
// note's history followed across renames.
func fileNames(file string, revs []Revision) []string {
	names := []string{file}
	for _, r := range revs {
		if r.OldPath != "" {
			names = append(names, r.OldPath)
		}
	}
	return names
}

// fileAt returns the first of names that exists at commit, and its
// content; "" when none does. A file whose content is missing from the
// repository is a *MissingObjectError, not an absent file.
func (w *Wiki) fileAt(ctx context.Context, commit string, names []string) (string, []byte, error) {
	if commit == "" {
		return "", nil, nil
	}
	snap, err := w.store.Snapshot(ctx, commit)
	if err != nil {
		return "", nil, err
	}
	for _, name := range names {
		_, content, err := snap.Read(ctx, name)
		if err == nil {
			return name, content, nil
		}
		if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrMissingObject) {
			return "", nil, err
		}
	}
	return "", nil, nil
}

// diffFile describes one file diff with its line counts.
func diffFile(d textdiff.FileDiff) DiffFile {
	f := DiffFile{File: d.NewPath, OldFile: d.OldPath}
	switch {
	case d.OldPath == "":
		f.Change, f.OldFile = ChangeAdded, ""
	case d.NewPath == "":
		f.Change, f.File, f.OldFile = ChangeDeleted, d.OldPath, ""
	case d.OldPath != d.NewPath:
		f.Change = ChangeRenamed
	default:
		f.Change, f.OldFile = ChangeModified, ""
	}
	f.Path = notePathOf(f.File)
	old, new := d.Old, d.New
	if d.OldPath == "" {
		old = nil
	}
	if d.NewPath == "" {
		new = nil
	}
	if binary(old) || binary(new) {
		f.Binary, f.Additions, f.Deletions = true, -1, -1
		return f
	}
	st := textdiff.Count(old, new)
	f.Additions, f.Deletions = st.Additions, st.Deletions
	return f
}

// binary reports whether git would treat content as binary.
func binary(b []byte) bool { return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 }
