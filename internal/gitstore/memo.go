package gitstore

import (
	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
	"github.com/wikid/wikid/internal/gitstore/internal/memo"
)

// writtenBlobBudget bounds the bytes of the contents the store keeps of
// the blobs it wrote.
const writtenBlobBudget = 4 << 20

type (
	blobCache   = memo.Cache[[]byte]
	treeCache   = memo.Cache[*tree]
	commitCache = memo.Cache[*gitformat.Commit]
	sizeCache   = memo.Cache[int64]
	reviewCache = memo.Cache[reviewNote]
)
