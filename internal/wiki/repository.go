package wiki

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// The repository's read side, for the front ends and the packages beside
// the wiki (sync and its guard): what they need of the commits and trees
// comes from these methods, never from the Store itself, which only the
// wiki writes through.

// Head returns where HEAD points: its branch and commit.
func (w *Wiki) Head(ctx context.Context) (Head, error) {
	h, err := w.store.Head(ctx)
	if err != nil {
		return Head{}, fmt.Errorf("read HEAD: %w", err)
	}
	return h, nil
}

// GitDir returns the repository's git directory: the .git folder of a
// checkout, the repository itself when it is bare. git commands run there.
func (w *Wiki) GitDir() string { return w.store.GitDir() }

// Snapshot returns the tree of a commit, given by its full id as Head,
// Commit and Changes name commits; "" is the empty tree. A Snapshot only
// reads. It returns an error wrapping ErrNotFound for an unknown commit.
func (w *Wiki) Snapshot(ctx context.Context, commit string) (Snapshot, error) {
	return w.store.Snapshot(ctx, commit)
}

// Changes lists the files that differ between two commits ("" is the
// empty tree), sorted by path, each with its blob on either side; a rename
// is a delete and an add. Use Diff for what changed in them.
func (w *Wiki) Changes(ctx context.Context, from, to string) ([]FileChange, error) {
	return w.store.Changes(ctx, from, to)
}

// IsAncestor reports whether commit a is an ancestor of (or equal to) b.
func (w *Wiki) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	return w.store.IsAncestor(ctx, a, b)
}

// MergeBase returns a best common ancestor of two commits, "" when their
// histories share none.
func (w *Wiki) MergeBase(ctx context.Context, a, b string) (string, error) {
	return w.store.MergeBase(ctx, a, b)
}

// UserIdentity returns the person git names for the repository: the one
// git would record as the author of a commit made in it, from getenv
// (GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL, EMAIL) and git's configuration files
// as git reads them. It returns the zero Identity when git names nobody,
// with an error naming a configuration file that cannot be read.
func (w *Wiki) UserIdentity(getenv func(string) string) (Identity, error) {
	id, err := w.store.UserIdentity(getenv)
	if err != nil || id.Name == "" || id.Email == "" {
		return Identity{}, err
	}
	return id, nil
}

// CommitResult is a commit as it describes itself, its message taken
// apart.
type CommitResult struct {
	ID      string
	Short   string
	Parents []string
	// Author made the change; Committer wrote the commit.
	Author, Committer Signature
	// Message is the whole message. Subject is its first paragraph on one
	// line, as git's %s shows it; Body the paragraphs after it, without
	// the trailers.
	Message       string
	Subject, Body string
	// Trailers are the "Key: value" lines of the message's last
	// paragraph, in order.
	Trailers []Trailer
	// Tool and Client are the Wiki-Tool and Wiki-Client trailers: by what
	// and for whom wikid made the commit; "" for a commit made without
	// wikid.
	Tool, Client string
}

// Trailer is a "Key: value" line at the end of a commit message.
type Trailer struct {
	Key, Value string
}

// Commit returns a commit: a full or short sha, "HEAD", "HEAD~N" or a
// branch. It returns NOT_FOUND (no such commit) and AMBIGUOUS (a short sha
// matching several commits).
func (w *Wiki) Commit(ctx context.Context, rev string) (*CommitResult, error) {
	id, err := w.resolve(ctx, rev)
	if errors.Is(err, ErrNotFound) {
		return nil, Errorf(CodeNotFound, "no commit %q", rev).WithHint("{activity} lists the commits")
	}
	if err != nil {
		return nil, err
	}
	info, err := w.store.CommitInfo(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", short(id), err)
	}
	res := &CommitResult{ID: info.ID, Short: shortID(info.ID), Parents: info.Parents,
		Author: info.Author, Committer: info.Committer, Message: info.Message}
	res.Subject, res.Body, res.Trailers = splitMessage(info.Message)
	for _, t := range res.Trailers {
		switch strings.ToLower(t.Key) {
		case "wiki-tool":
			res.Tool = t.Value
		case "wiki-client":
			res.Client = t.Value
		}
	}
	return res, nil
}

// splitMessage takes a commit message apart: its subject (the first
// paragraph, on one line), its body and the trailers of its last
// paragraph, when every line of it is one ("Key: value", the key without
// spaces).
func splitMessage(msg string) (subject, body string, trailers []Trailer) {
	paras := strings.Split(strings.TrimSpace(strings.ReplaceAll(msg, "\r\n", "\n")), "\n\n")
	subject = strings.Join(strings.Fields(paras[0]), " ")
	rest := paras[1:]
	if n := len(rest); n > 0 {
		var ts []Trailer
		for _, line := range strings.Split(strings.TrimSpace(rest[n-1]), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok || k == "" || strings.ContainsAny(k, " \t") {
				ts = nil
				break
			}
			ts = append(ts, Trailer{Key: k, Value: strings.TrimSpace(v)})
		}
		if ts != nil {
			trailers, rest = ts, rest[:n-1]
		}
	}
	return subject, strings.TrimSpace(strings.Join(rest, "\n\n")), trailers
}

// FilesRequest lists the files of a tree.
type FilesRequest struct {
	// Dir is the folder whose files to list, recursively; "" lists every
	// file.
	Dir string
	// Version is a revision; "" is HEAD.
	Version string
}

// Files lists the regular files under a folder, recursively, sorted by
// path: notes and attachments alike, hidden folders included. A folder
// that holds no file gives none. It returns NOT_FOUND (an unknown
// version) and AMBIGUOUS (a short sha matching several commits).
func (w *Wiki) Files(ctx context.Context, req FilesRequest) ([]File, error) {
	snap, err := w.snapshotAt(ctx, req.Version)
	if err != nil {
		return nil, err
	}
	return snap.Files(ctx, strings.Trim(req.Dir, "/"))
}

// NoteFiles returns the file of each of notePaths that names a note at
// version ("" is HEAD), by note path, as a read finds it (the markdown
// extensions in order, then ignoring case and how accents are encoded),
// without reading the note. A path that is not a note path, names no
// note or names several is left out. It returns NOT_FOUND (an unknown version) and
// AMBIGUOUS (a short sha matching several commits).
func (w *Wiki) NoteFiles(ctx context.Context, version string, notePaths []string) (map[string]File, error) {
	snap, err := w.snapshotAt(ctx, version)
	if err != nil {
		return nil, err
	}
	out := make(map[string]File, len(notePaths))
	for _, p := range notePaths {
		notePath, ext, err := note.CleanPath(p)
		if err != nil {
			continue
		}
		f, err := w.locate(ctx, snap, notePath, ext)
		switch {
		case err == nil:
			out[p] = f
		case errors.Is(err, ErrNotFound) || errors.Is(err, ErrAmbiguous):
		default:
			return nil, err
		}
	}
	return out, nil
}
