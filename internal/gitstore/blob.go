package gitstore

import (
	"context"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/wiki"
)

// ReadBlob returns the content of a blob by its full hex id. An id that is
// not a full hex id, or an object that is not a blob, is an error wrapping
// wiki.ErrNotFound; a blob the repository lacks (a partial clone) is a
// *wiki.MissingObjectError, which wraps wiki.ErrMissingObject and
// wiki.ErrNotFound.
func (s *Store) ReadBlob(ctx context.Context, blob string) ([]byte, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	id, ok := gitformat.ParseHex(blob)
	if !ok {
		return nil, wiki.Errorf(wiki.CodeNotFound, "%q is not a blob id", blob)
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", blob, err)
	}
	if typ != plumbing.BlobObject {
		return nil, wiki.Errorf(wiki.CodeNotFound, "%s is a %s, not a blob", id, typ)
	}
	s.sizes.Put(id, int64(len(b)))
	return b, nil
}
