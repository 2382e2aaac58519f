package gitstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/objdir"
	"github.com/wikid/wikid/internal/wiki"
)

// ResolveRevision turns a revision into a commit id. It accepts a full or
// unique short sha (at least 4 hex digits), "HEAD" (or "@"), a branch, tag
// or remote-tracking name (short or full, as git resolves them: refs first,
// then short shas), followed by any number of "~N", "~", "^N" and "^"
// suffixes. A short sha matching several commits is an error of code
// AMBIGUOUS listing them; a revision that names nothing, or that names a
// blob or a tree, is an error wrapping wiki.ErrNotFound.
func (s *Store) ResolveRevision(ctx context.Context, rev string) (string, error) {
	if err := s.check(ctx); err != nil {
		return "", err
	}
	base, ops := gitformat.SplitRevision(rev)
	id, err := s.resolveBase(base)
	if err != nil {
		return "", err
	}
	id, typ, err := s.peel(id)
	if err != nil {
		return "", fmt.Errorf("resolve %q: %w", rev, err)
	}
	if typ != plumbing.CommitObject {
		return "", wiki.Errorf(wiki.CodeNotFound, "%q names a %s, not a commit", rev, typ).
			WithHint("give the id of a commit; {history} and {activity} list them")
	}
	for ops != "" {
		op := ops[0]
		n, rest, err := gitformat.ParseCount(ops[1:], op)
		if err != nil {
			return "", wiki.Errorf(wiki.CodeNotFound, "resolve %q: %v", rev, err).
				WithHint("write a revision as git does: an id, a branch or a tag, then ~n or ^n")
		}
		ops = rest
		if id, err = s.ancestor(id, op, n); err != nil {
			return "", fmt.Errorf("resolve %q: %w", rev, err)
		}
	}
	return id.String(), nil
}

// ancestor applies "~n" (n first parents) or "^n" (the n-th parent; ^0 is
// the commit itself) to id.
func (s *Store) ancestor(id plumbing.Hash, op byte, n int) (plumbing.Hash, error) {
	steps, parent := n, 0
	if op == '^' {
		if n == 0 {
			return id, nil
		}
		steps, parent = 1, n-1
	}
	for range steps {
		c, err := s.commit(id)
		if err != nil {
			return id, err
		}
		if parent >= len(c.Parents) {
			return id, wiki.Errorf(wiki.CodeNotFound, "commit %s has no parent %d", id, parent+1).
				WithHint("go back fewer commits; {activity} lists them")
		}
		id = c.Parents[parent]
	}
	return id, nil
}

// resolveBase resolves a revision without suffixes to an object id.
func (s *Store) resolveBase(name string) (plumbing.Hash, error) {
	switch {
	case name == "":
		return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "empty revision").
			WithHint("name a commit by its id (4 or more hex digits), a branch, a tag or HEAD~n; {history} and {activity} list commits")
	case name == "HEAD" || name == "@":
		h, err := s.readHead()
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if h.Commit == "" {
			return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "HEAD: branch %s has no commits yet", h.Branch).
				WithHint("write a note first; its commit starts the history")
		}
		return plumbing.NewHash(h.Commit), nil
	}
	if id, ok := gitformat.ParseHex(name); ok {
		_, _, err := s.readObject(id)
		if errors.Is(err, wiki.ErrMissingObject) {
			return id, wiki.Errorf(wiki.CodeNotFound, "unknown revision %q", name).
				WithHint("name a commit of this repository by its id, a branch, a tag or HEAD~n; {history} and {activity} list commits")
		}
		return id, err
	}
	if id, ok, err := s.dwimRef(name); err != nil || ok {
		return id, err
	}
	if gitformat.IsShortHex(name) {
		return s.resolvePrefix(name)
	}
	return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "unknown revision %q", name).
		WithHint("name a commit by its id (4 or more hex digits), a branch, a tag or HEAD~n; {history} and {activity} list commits")
}

// dwimRef resolves a ref name in git's order: as given (pseudo-refs such as
// ORIG_HEAD only), refs/<name>, refs/tags/, refs/heads/, refs/remotes/ and
// refs/remotes/<name>/HEAD.
func (s *Store) dwimRef(name string) (plumbing.Hash, bool, error) {
	if gitformat.CheckRefName(name) != nil {
		return plumbing.ZeroHash, false, nil
	}
	candidates := []string{"refs/" + name, "refs/tags/" + name, "refs/heads/" + name,
		"refs/remotes/" + name, "refs/remotes/" + name + "/HEAD"}
	if strings.HasPrefix(name, "refs/") || gitformat.IsPseudoRef(name) {
		candidates = append([]string{name}, candidates...)
	}
	for _, ref := range candidates {
		_, id, ok, err := s.readRef(ref)
		if err != nil {
			return id, false, err
		}
		if ok {
			return id, true, nil
		}
	}
	return plumbing.ZeroHash, false, nil
}

// resolvePrefix finds the commit whose id starts with a short hex prefix.
// Objects that are not commits (or tags of commits) are ignored, as git does
// where it expects a commit.
func (s *Store) resolvePrefix(prefix string) (plumbing.Hash, error) {
	prefix = strings.ToLower(prefix)
	ids, err := objdir.WithPrefix(s.objectsDir(), prefix)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("resolve %q: %w", prefix, err)
	}
	var commits []plumbing.Hash
	var other plumbing.ObjectType
	for _, id := range ids {
		_, typ, err := s.peel(id)
		if errors.Is(err, wiki.ErrNotFound) {
			continue
		}
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("resolve %q: %w", prefix, err)
		}
		if typ == plumbing.CommitObject {
			commits = append(commits, id)
		} else {
			other = typ
		}
	}
	switch {
	case len(commits) == 1:
		return commits[0], nil
	case len(commits) > 1:
		names := make([]string, len(commits))
		for i, id := range commits {
			names[i] = id.String()
		}
		slices.Sort(names)
		e := wiki.Errorf(wiki.CodeAmbiguous, "short id %q matches %d commits: %s",
			prefix, len(commits), strings.Join(names, ", "))
		e.Details = map[string]any{"candidates": names}
		return plumbing.ZeroHash, e.WithHint("give more hex digits")
	case other != 0:
		return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "%q names a %s, not a commit", prefix, other).
			WithHint("give the id of a commit; {history} and {activity} list them")
	}
	return plumbing.ZeroHash, wiki.Errorf(wiki.CodeNotFound, "unknown revision %q", prefix).
		WithHint("name a commit by its id (4 or more hex digits), a branch, a tag or HEAD~n; {history} and {activity} list commits")
}
