package gitstore

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// checkRequest validates the parts of a commit request that do not depend
// on the repository. It returns errors of code INVALID_PARAMS or
// INVALID_PATH.
func checkRequest(req *wiki.CommitRequest) error {
	if strings.TrimSpace(req.Message) == "" {
		return wiki.Errorf(wiki.CodeInvalidParams, "commit message is empty")
	}
	for _, sig := range []struct {
		role string
		sig  wiki.Signature
	}{{"author", req.Author}, {"committer", req.Committer}} {
		if strings.TrimSpace(sig.sig.Name) == "" {
			return wiki.Errorf(wiki.CodeInvalidParams, "%s name is empty", sig.role)
		}
		if strings.ContainsAny(sig.sig.Name+sig.sig.Email, "<>\n\x00") {
			return wiki.Errorf(wiki.CodeInvalidParams, "%s %q <%s> contains '<', '>', a newline or NUL",
				sig.role, sig.sig.Name, sig.sig.Email)
		}
	}
	if _, err := commitID(req.Parent); err != nil {
		return wiki.Errorf(wiki.CodeInvalidParams, "parent %q is not a full commit id", req.Parent)
	}
	for _, id := range append(slices.Clone(req.Merged), req.FastForward) {
		if h, err := commitID(id); err != nil || h.IsZero() && id != req.FastForward {
			return wiki.Errorf(wiki.CodeInvalidParams, "%q is not a full commit id", id)
		}
	}
	if req.FastForward != "" && len(req.Merged) > 0 {
		return wiki.Errorf(wiki.CodeInvalidParams, "a fast-forward has no merged parents")
	}
	seen := make(map[string]bool, len(req.Changes))
	for _, c := range req.Changes {
		if _, err := splitPath(c.Path); err != nil {
			return err
		}
		if seen[c.Path] {
			return wiki.Errorf(wiki.CodeInvalidParams, "%q is changed twice in one commit", c.Path)
		}
		seen[c.Path] = true
	}
	return nil
}

// planChanges resolves the request's files against the parent tree: the
// file each replaces, the mode and blob id of the new content. A delete of a
// missing file is NOT_FOUND; writing over a folder, a symlink or a submodule
// is INVALID_PATH. The result is sorted by path.
func (s *Store) planChanges(root plumbing.Hash, files []wiki.FileChange) ([]*change, error) {
	deleted := make(map[string]bool)
	for _, f := range files {
		deleted[f.Path] = f.Delete
	}
	changes := make([]*change, 0, len(files))
	for _, f := range files {
		parts, err := splitPath(f.Path)
		if err != nil {
			return nil, err
		}
		if !f.Delete {
			if err := s.checkFolders(root, parts, deleted); err != nil {
				return nil, err
			}
		}
		c := &change{path: f.Path, parts: parts, delete: f.Delete, content: f.Content, mode: gitformat.ModeFile}
		old, ok, err := s.lookup(root, parts)
		if err != nil {
			return nil, fmt.Errorf("read %q in the parent: %w", f.Path, err)
		}
		switch {
		case ok && gitformat.IsTreeMode(old.Mode):
			return nil, wiki.Errorf(wiki.CodeInvalidPath, "%q is a folder", f.Path)
		case ok && !gitformat.IsRegularMode(old.Mode):
			return nil, wiki.Errorf(wiki.CodeInvalidPath, "%q is a symlink or a submodule, not a file", f.Path)
		case ok:
			c.old, c.hadOld = old, true
			if old.Mode == gitformat.ModeExec {
				c.mode = gitformat.ModeExec
			}
		case f.Delete:
			return nil, wiki.Errorf(wiki.CodeNotFound, "delete %q: no such file in the parent commit", f.Path)
		}
		if !f.Delete {
			c.blob = gitformat.HashObject(plumbing.BlobObject, f.Content)
		}
		changes = append(changes, c)
	}
	slices.SortFunc(changes, func(a, b *change) int { return strings.Compare(a.path, b.path) })
	return changes, nil
}

// checkFolders returns an error of code INVALID_PATH if a folder on the path
// is a file in the parent tree that the request does not delete.
func (s *Store) checkFolders(root plumbing.Hash, parts []string, deleted map[string]bool) error {
	for i := 1; i < len(parts); i++ {
		e, ok, err := s.lookup(root, parts[:i])
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		folder := strings.Join(parts[:i], "/")
		if !gitformat.IsTreeMode(e.Mode) && !deleted[folder] {
			return wiki.Errorf(wiki.CodeInvalidPath, "cannot write %q: %q is a file", strings.Join(parts, "/"), folder)
		}
	}
	return nil
}

// stamp fills in a zero signature time with now.
func stamp(sig *wiki.Signature, now time.Time) {
	if sig.When.IsZero() {
		sig.When = now
	}
}
