package wiki

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// MoveRequest moves a note, or every note under a folder, in one commit.
type MoveRequest struct {
	// Path is a note path, or a folder: a path ending in '/', or one that
	// names no note.
	Path string
	// NewPath is the note's new path (without extension it keeps its own),
	// or the folder's new path ("/" for the root).
	NewPath string
	// LeaveLinks leaves every other note as it is: the moved files are only
	// renamed, and the result lists the notes whose links still name the
	// old paths. By default those links are rewritten in the same commit.
	LeaveLinks bool
	Mutation
}

// LinkedNote is a note whose links a move or delete changed, or left
// naming a note that is gone.
type LinkedNote struct {
	// Path is the note's path after the change.
	Path  string
	Links []LinkChange
}

// LinkChange is one link a move or delete affects.
type LinkChange struct {
	Line int
	// Old is the target as it was written; New what a move wrote instead.
	Old string
	New string
	// Now is the note that Old resolves to after the change, "" when it
	// resolves to nothing (only set for links left as they were).
	Now string
}

// fileMove is one note a move renames.
type fileMove struct {
	from, to *staged
	toPath   string
	toFile   string
}

// Move renames a note, or every note under a folder (files that are not
// notes stay), as one commit in which git sees each note renamed. The new
// path is written in Unicode normalization form C, in a folder that exists
// only in another form if there is one (see newNotePath), and must pass
// note.CheckNewPath (note.CheckNewFolder for a folder; the moved notes keep
// their names); a note whose name differs from the new one only in case or
// normalization is in the way, unless it is the one that moves. A moved
// note keeps its bytes, except for links in it that must change (relative
// ones to notes that stay), so git's rename detection, which wants half
// the content unchanged, misses only a note made mostly of such links. Unless
// LeaveLinks is set, every link in any note (the moved ones included) that
// would no longer reach its note is rewritten in its own style in the same
// commit, touching nothing but the link's target text (see package graph
// for the rules); Result.LinksUpdated lists them. Links that no text can
// keep, and with LeaveLinks all affected links, are listed in
// Result.BrokenLinks. It returns INVALID_PATH, INVALID_PARAMS (no new
// path, the same path, a version for a folder), NOT_FOUND (no such note or
// folder), ALREADY_EXISTS (a note exists at a new path), CONFLICT,
// LOCAL_CHANGES, TOO_LARGE and READ_ONLY.
func (w *Wiki) Move(ctx context.Context, req MoveRequest) (*Result, error) {
	var updated, broken []LinkedNote
	res, err := w.mutate(ctx, "move", req.Mutation, func(ctx context.Context, t *txn) error {
		var err error
		updated, broken, err = t.move(ctx, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	res.LinksUpdated, res.BrokenLinks = updated, broken
	if n := len(broken); n > 0 {
		res.Warnings = append(res.Warnings, brokenWarning(broken, "still name the old paths"))
	}
	return res, nil
}

// move stages a move and its link rewrites, and reports the links.
func (t *txn) move(ctx context.Context, req MoveRequest) (updated, broken []LinkedNote, err error) {
	moves, subject, err := t.moveSources(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	newPath := make(map[string]string, len(moves))
	for _, m := range moves {
		newPath[m.from.notePath] = m.toPath
	}
	var rel []Relink
	err = t.w.withGraphAt(ctx, t.head.Commit, func(g Graph) error {
		rel = g.Relinks(newPath)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rel {
		path := r.Path
		if p, ok := newPath[path]; ok {
			path = p
		}
		up, left, err := t.relink(ctx, r, req.LeaveLinks)
		if err != nil {
			return nil, nil, err
		}
		if len(up) > 0 {
			updated = append(updated, LinkedNote{Path: path, Links: up})
		}
		if len(left) > 0 {
			broken = append(broken, LinkedNote{Path: path, Links: left})
		}
	}
	t.movedFrom, t.movedTo = make(map[string]string), make(map[string]string)
	contents := make([][]byte, len(moves))
	for i, m := range moves {
		contents[i] = m.from.content
		m.from.content = nil
	}
	for i, m := range moves {
		to := m.to
		if to == nil {
			to = t.add(&staged{file: m.toFile, notePath: m.toPath})
		}
		if err := t.put(to, contents[i]); err != nil {
			return nil, nil, err
		}
		t.movedFrom[m.toFile], t.movedTo[m.from.file] = m.from.file, m.toFile
	}
	t.verb("move")
	t.subjectLine = subject
	return updated, broken, nil
}

// moveSources finds the notes a move renames and where each goes, and the
// commit subject; it checks that no note is in the way.
func (t *txn) moveSources(ctx context.Context, req MoveRequest) ([]fileMove, string, error) {
	if strings.TrimSpace(req.NewPath) == "" {
		return nil, "", Errorf(CodeInvalidParams, "{new_path} is empty").
			WithHint("give the note's new path, such as archive/old-plan")
	}
	src := strings.TrimSpace(req.Path)
	if !strings.HasSuffix(src, "/") {
		s, err := t.stage(ctx, src)
		if err != nil {
			return nil, "", err
		}
		if s.content != nil {
			return t.moveNote(ctx, s, req)
		}
	}
	folder, err := note.CleanFolder(src)
	if err != nil {
		return nil, "", err
	}
	return t.moveFolder(ctx, folder, req)
}

// moveNote plans the move of one note.
func (t *txn) moveNote(ctx context.Context, s *staged, req MoveRequest) ([]fileMove, string, error) {
	if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
		return nil, "", err
	}
	to, ext, err := note.CleanPath(req.NewPath)
	if err != nil {
		return nil, "", err
	}
	if err := note.CheckNewPath(note.Normalize(to), ext); err != nil {
		return nil, "", err
	}
	if to, err = t.w.newNotePath(ctx, t.snap, to); err != nil {
		return nil, "", err
	}
	if ext == "" {
		ext = s.file[len(s.notePath):]
	}
	m := fileMove{from: s, toPath: to, toFile: note.FileName(to, ext)}
	if m.toFile == s.file {
		return nil, "", Errorf(CodeInvalidParams, "note %q is already at %s", s.notePath, req.NewPath).
			WithHint("give a different {new_path}")
	}
	if err := t.checkFree(ctx, []fileMove{m}); err != nil {
		return nil, "", err
	}
	return []fileMove{m}, "move: " + s.notePath + " -> " + to, nil
}

// moveFolder plans the move of every note under a folder.
func (t *txn) moveFolder(ctx context.Context, folder string, req MoveRequest) ([]fileMove, string, error) {
	if folder == "" {
		return nil, "", Errorf(CodeInvalidParams, "the root folder cannot be moved").
			WithHint("move a note or a folder inside the wiki")
	}
	if req.ExpectedVersion != "" {
		return nil, "", Errorf(CodeInvalidParams, "{expected_version} applies to a note, and %q is a folder", folder).
			WithHint("leave {expected_version} out to move a folder")
	}
	files, err := t.snap.Files(ctx, folder)
	if err != nil {
		return nil, "", fmt.Errorf("list %s: %w", folder, err)
	}
	if len(files) == 0 {
		// The folder may be spelled in another normalization form.
		if sp, err := t.w.fold.spellFolder(ctx, t.w.store, t.snap, note.Normalize(folder)); err != nil {
			return nil, "", err
		} else if sp != folder {
			if files, err = t.snap.Files(ctx, sp); err != nil {
				return nil, "", fmt.Errorf("list %s: %w", sp, err)
			}
			folder = sp
		}
	}
	to, err := note.CleanFolder(req.NewPath)
	if err != nil {
		return nil, "", err
	}
	to = note.Normalize(to)
	if err := note.CheckNewFolder(to); err != nil {
		return nil, "", err
	}
	// Into a folder that exists in another normalization form, unless the
	// move is that folder's own rename to normal form C.
	if to != note.Normalize(folder) {
		if to, err = t.w.fold.spellFolder(ctx, t.w.store, t.snap, to); err != nil {
			return nil, "", err
		}
	}
	if to == folder {
		return nil, "", Errorf(CodeInvalidParams, "folder %q is already at %s", folder, req.NewPath).
			WithHint("give a different {new_path}")
	}
	var moves []fileMove
	for _, f := range files {
		p, ext, ok := note.SplitFileName(f.Path)
		if !ok {
			continue
		}
		s, err := t.stageFile(ctx, f.Path)
		if err != nil {
			return nil, "", err
		}
		if s.content == nil {
			continue // deleted earlier in the batch
		}
		np := strings.TrimPrefix(p, folder+"/")
		if to != "" {
			np = to + "/" + np
		}
		// The notes keep their names, which need not pass CheckNewPath:
		// only the new folder is new.
		if _, _, err := note.CleanPath(np); err != nil {
			return nil, "", err
		}
		moves = append(moves, fileMove{from: s, toPath: np, toFile: note.FileName(np, ext)})
	}
	if len(moves) == 0 {
		return nil, "", Errorf(CodeNotFound, "no note or folder %q", folder).
			WithHint("check the path with {list}")
	}
	if err := t.checkFree(ctx, moves); err != nil {
		return nil, "", err
	}
	dst := to + "/"
	if to == "" {
		dst = "/"
	}
	return moves, "move: " + folder + "/ -> " + dst, nil
}

// checkFree fails with ALREADY_EXISTS when a note (other than one that
// moves away) has the new path of a move, ignoring case and Unicode
// normalization, or two moves go to the same path. It sets each move's
// staged target when the target is a file that moves away.
func (t *txn) checkFree(ctx context.Context, moves []fileMove) error {
	leaving := make(map[string]*staged, len(moves))
	for _, m := range moves {
		leaving[m.from.file] = m.from
	}
	// every note at HEAD by its path ignoring case, listed once for all
	// the moves of a folder
	files, err := t.snap.Files(ctx, "")
	if err != nil {
		return fmt.Errorf("list notes: %w", err)
	}
	byPath := make(map[string][]string)
	for _, f := range files {
		if p, _, ok := note.SplitFileName(f.Path); ok {
			k := note.NameKey(p)
			byPath[k] = append(byPath[k], f.Path)
		}
	}
	seen := make(map[string]bool, len(moves))
	for i, m := range moves {
		key := note.NameKey(m.toPath)
		if seen[key] {
			return Errorf(CodeAlreadyExists, "two notes would move to %q", m.toPath).
				WithHint("move them one at a time, to different paths")
		}
		seen[key] = true
		if s, ok := t.files[m.toFile]; ok && s.content != nil && leaving[m.toFile] == nil {
			return exists(m.toPath) // written earlier in the batch
		}
		for _, f := range byPath[key] {
			if s, staged := t.files[f]; leaving[f] == nil && (!staged || s.content != nil) {
				return exists(m.toPath)
			}
		}
		moves[i].to = leaving[m.toFile]
	}
	return nil
}

func exists(notePath string) error {
	return Errorf(CodeAlreadyExists, "note %q already exists", notePath).
		WithHint("choose another {new_path}, or move or delete that note first")
}

// stageFile returns the staged file at an exact repository path that
// exists at HEAD or was staged.
func (t *txn) stageFile(ctx context.Context, file string) (*staged, error) {
	if s, ok := t.files[file]; ok {
		return s, nil
	}
	f, content, err := t.snap.Read(ctx, file)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return t.add(&staged{file: f.Path, notePath: notePathOf(f.Path), base: f, old: content, content: content}), nil
}

// relink rewrites the links of one note that a move affects, unless leave
// is set, and returns the links it rewrote and those it left.
func (t *txn) relink(ctx context.Context, r Relink, leave bool) (updated, left []LinkChange, err error) {
	s, err := t.stageFile(ctx, r.File)
	if err != nil {
		return nil, nil, err
	}
	if s.base.Blob != r.Version || !bytes.Equal(s.content, s.old) {
		return nil, nil, Errorf(CodeConflict, "note %q changed while its links were being planned", s.notePath).
			WithHint("retry the move")
	}
	edits := append([]LinkEdit(nil), r.Links...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].Start > edits[j].Start })
	content := bytes.Clone(s.content)
	for _, e := range edits {
		if leave || e.New == "" {
			left = append(left, LinkChange{Line: e.Line, Old: e.Old, Now: e.Now})
			continue
		}
		if e.End > len(content) || string(content[e.Start:e.End]) != e.Old {
			return nil, nil, fmt.Errorf("relink %s: link %q is not at %d", s.file, e.Old, e.Start)
		}
		content = append(content[:e.Start:e.Start], append([]byte(e.New), content[e.End:]...)...)
		updated = append(updated, LinkChange{Line: e.Line, Old: e.Old, New: e.New})
	}
	reverse(updated)
	reverse(left)
	if len(updated) > 0 {
		if err := t.put(s, content); err != nil {
			return nil, nil, err
		}
	}
	return updated, left, nil
}

func reverse(cs []LinkChange) {
	for i, j := 0, len(cs)-1; i < j; i, j = i+1, j-1 {
		cs[i], cs[j] = cs[j], cs[i]
	}
}

// brokenWarning says which notes have links that no longer reach their
// note.
func brokenWarning(notes []LinkedNote, what string) string {
	const listed = 10
	parts := make([]string, 0, min(len(notes), listed))
	for i, n := range notes {
		if i == listed {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", n.Path, plural(len(n.Links), "link")))
	}
	more := ""
	if len(notes) > listed {
		more = fmt.Sprintf(" and %d more", len(notes)-listed)
	}
	return fmt.Sprintf("%s %s: %s%s", plural(len(notes), "note has links that", "notes have links that"), what, strings.Join(parts, ", "), more)
}

// plural writes n with the singular or plural form ("1 link", "2 links");
// with two forms given, the second is the plural.
func plural(n int, forms ...string) string {
	if n == 1 {
		return "1 " + forms[0]
	}
	if len(forms) > 1 {
		return fmt.Sprintf("%d %s", n, forms[1])
	}
	return fmt.Sprintf("%d %ss", n, forms[0])
}

// deletedLinks lists the links to the notes this transaction deletes, by
// linking note, as the link graph at HEAD has them; none without a graph.
func (t *txn) deletedLinks(ctx context.Context) ([]LinkedNote, error) {
	gone := make(map[string]string)
	for _, s := range t.files {
		if s.content == nil && s.base.Blob != "" {
			gone[s.notePath] = ""
		}
	}
	if len(gone) == 0 {
		return nil, nil
	}
	var rel []Relink
	err := t.w.withGraphAt(ctx, t.head.Commit, func(g Graph) error {
		rel = g.Relinks(gone)
		return nil
	})
	var out []LinkedNote
	for _, r := range rel {
		ln := LinkedNote{Path: r.Path}
		for _, e := range r.Links {
			ln.Links = append(ln.Links, LinkChange{Line: e.Line, Old: e.Old, Now: e.Now})
		}
		out = append(out, ln)
	}
	return out, err
}
