package gitstore

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// CommitInfo returns a commit's parents, author, committer and message. An
// unknown commit, or an object that is not one, is an error wrapping
// wiki.ErrNotFound.
func (s *Store) CommitInfo(ctx context.Context, commit string) (wiki.CommitInfo, error) {
	if err := s.check(ctx); err != nil {
		return wiki.CommitInfo{}, err
	}
	id, ok := gitformat.ParseHex(commit)
	if !ok {
		return wiki.CommitInfo{}, wiki.Errorf(wiki.CodeNotFound, "%q is not a commit id", commit)
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return wiki.CommitInfo{}, err
	}
	if typ != plumbing.CommitObject {
		return wiki.CommitInfo{}, wiki.Errorf(wiki.CodeNotFound, "%s is a %s, not a commit", id, typ)
	}
	c, err := gitformat.ParseCommitInfo(b)
	if err != nil {
		return wiki.CommitInfo{}, fmt.Errorf("commit %s: %w", id, err)
	}
	return wiki.CommitInfo{ID: id.String(), Parents: c.Parents, Author: wiki.Signature(c.Author),
		Committer: wiki.Signature(c.Committer), Message: c.Message}, nil
}
