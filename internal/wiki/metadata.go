package wiki

import (
	"context"

	"github.com/wikid/wikid/internal/note"
)

// MetadataRequest changes a note's frontmatter only.
type MetadataRequest struct {
	Path   string
	Change note.MetaChange
	Mutation
}

// UpdateMetadata changes the note's frontmatter as one commit, touching only
// the lines of the keys that change, and reports the frontmatter before and
// after. It returns INVALID_PARAMS (for example tags together with add_tags,
// or malformed frontmatter), INVALID_PATH, NOT_FOUND, CONFLICT, TOO_LARGE,
// LOCAL_CHANGES and READ_ONLY.
func (w *Wiki) UpdateMetadata(ctx context.Context, req MetadataRequest) (*Result, error) {
	return w.mutate(ctx, "metadata", req.Mutation, func(ctx context.Context, t *txn) error { return t.updateMetadata(ctx, req) })
}

func (t *txn) updateMetadata(ctx context.Context, req MetadataRequest) error {
	s, err := t.existing(ctx, req.Path)
	if err != nil {
		return err
	}
	if err := checkVersion(s.notePath, req.ExpectedVersion, s.version()); err != nil {
		return err
	}
	content, err := note.UpdateMetadata(s.content, req.Change)
	if err != nil {
		return err
	}
	t.metadata = &MetadataChange{
		Before: frontmatterOf(s.notePath, s.content),
		After:  frontmatterOf(s.notePath, content),
	}
	t.verb("metadata")
	return t.put(s, content)
}

func frontmatterOf(notePath string, content []byte) map[string]any {
	n := note.Parse(notePath, content)
	if n.Properties == nil {
		return map[string]any{}
	}
	return n.Properties
}
