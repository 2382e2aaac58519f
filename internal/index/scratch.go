package index

import (
	"context"
	"fmt"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/wikid/wikid/internal/wiki"
)

// Scratch returns an empty index held in memory only, with the mapping,
// analyzers and query compiler of this one: a search on it has the same
// semantics as on the index on disk, over the notes added to it. The wiki
// answers from one while this index is built (see wiki.ScratchIndex).
func (x *Index) Scratch() (wiki.ScratchIndex, error) {
	im, err := newMapping()
	if err != nil {
		return nil, fmt.Errorf("build index mapping: %w", err)
	}
	bi, err := bleve.NewUsing("", im, scorch.Name, scorch.Name, nil)
	if err != nil {
		return nil, fmt.Errorf("create scratch index: %w", err)
	}
	return &scratch{x: &Index{zone: x.zone, log: x.log, bi: bi, im: im, unsaved: &unsaved{}}}, nil
}

// scratch is an Index in memory: nothing of it reaches the disk.
type scratch struct{ x *Index }

// Add indexes notes, replacing any of the same paths.
func (s *scratch) Add(ctx context.Context, docs []wiki.Document) error {
	return s.x.apply(ctx, "", docs, nil)
}

// Search is Index.Search over the notes added so far.
func (s *scratch) Search(ctx context.Context, req wiki.SearchRequest) (*wiki.SearchResult, error) {
	return s.x.Search(ctx, req)
}

// Close releases the memory: an in-memory index has no disk to wait for.
func (s *scratch) Close() error {
	s.x.mu.Lock()
	defer s.x.mu.Unlock()
	if s.x.bi == nil {
		return nil
	}
	err := s.x.bi.Close()
	s.x.bi = nil
	return err
}
