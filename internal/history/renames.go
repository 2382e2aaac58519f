package history

import (
	"context"

	"github.com/wikid/wikid/internal/wiki"
)

// Renames pairs the deleted and added files of changes (as Store.Changes
// returns them, sorted by path) the way `git diff` detects renames by
// default, and returns the old path of every added file that is a rename.
// It reads the blobs of the files involved; one missing from the repository
// (a partial clone) pairs by equal blob id only. It returns the store's
// other errors.
func (x *Index) Renames(ctx context.Context, changes []wiki.FileChange) (map[string]string, error) {
	var deleted, added []wiki.FileChange
	for _, fc := range changes {
		switch {
		case fc.OldBlob != "" && fc.NewBlob == "":
			deleted = append(deleted, fc)
		case fc.OldBlob == "" && fc.NewBlob != "":
			added = append(added, fc)
		}
	}
	out := map[string]string{}
	if len(deleted) == 0 || len(added) == 0 {
		return out, nil
	}
	b := newBuilder(x.store)
	read := func(fcs []wiki.FileChange, blob func(wiki.FileChange) string) ([]*candidate, error) {
		cs := make([]*candidate, len(fcs))
		for i, fc := range fcs {
			c, err := b.candidate(ctx, fc.Path, mustOID(blob(fc)))
			if err != nil {
				return nil, err
			}
			cs[i] = c
		}
		return cs, nil
	}
	srcs, err := read(deleted, func(fc wiki.FileChange) string { return fc.OldBlob })
	if err != nil {
		return nil, err
	}
	dsts, err := read(added, func(fc wiki.FileChange) string { return fc.NewBlob })
	if err != nil {
		return nil, err
	}
	for di, si := range pairRenames(srcs, dsts) {
		if si >= 0 {
			out[dsts[di].path] = srcs[si].path
		}
	}
	return out, nil
}
