package index

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	zap "github.com/blevesearch/zapx/v17"
	bolterrors "go.etcd.io/bbolt/errors"
)

// zapx sizes the buffer of a new segment for the batch's documents and
// 100 more, at the average size of the last segment it built: for the one
// note of a write, about 3 MiB allocated and dropped again, most of what a
// write allocates and so of the collector's work. The buffer grows as
// needed from the batch's own estimate.
func init() { zap.NewSegmentBufferNumResultsBump = 0 }

// storeConfig is the configuration of bleve's scorch store, at creation
// and on every open. bolt_timeout bounds the wait for the lock on the root
// file: a second process with the same index open is an error, not a hang.
// unsafe_batch makes a batch return before it is on disk (see unsaved).
// Keeping a single snapshot means a damaged segment cannot make scorch fall
// back silently to an older state: the index then opens without its
// schema version and is recreated, with a warning. maxSegmentSize bounds
// the segments bleve's merges make (see mergeLimit).
func storeConfig() map[string]any {
	return map[string]any{
		"bolt_timeout":           "2s",
		"numSnapshotsToKeep":     1,
		"unsafe_batch":           true, // see unsaved
		"scorchMergePlanOptions": map[string]any{"maxSegmentSize": mergeLimit},
	}
}

// mergeLimit is the most notes a merge of segments gives one segment.
// A merge maps and reads all of the segments it merges: with bleve's
// default of 5,000,000, the last merges of a first build at 100,000 notes
// read the whole index at once, 250 MB of pages, which made the daemon's
// peak memory. Above the limit a search reads a few more segments.
const mergeLimit = 20000

// openExisting opens the index at dir and checks its schema and time zone
// (see Options.Location). It returns an
// error wrapping os.ErrNotExist when there is no index, ErrLocked when
// another process holds it, and another error when it is unusable.
func openExisting(dir, zone string) (bi bleve.Index, commit string, err error) {
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			if _, derr := os.Stat(dir); derr == nil {
				// A directory without metadata is debris of an
				// interrupted creation: unusable, not missing.
				return nil, "", fmt.Errorf("open index: no index_meta.json")
			}
		}
		return nil, "", err
	}
	// A corrupt segment can make bleve panic rather than fail.
	defer func() {
		if r := recover(); r != nil {
			if bi != nil {
				_ = bi.Close()
			}
			bi, commit, err = nil, "", fmt.Errorf("open index: panic: %v", r)
		}
	}()
	if err := checkLatest(dir); err != nil {
		return nil, "", err
	}
	bi, err = bleve.OpenUsing(dir, storeConfig())
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, "", fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		return nil, "", fmt.Errorf("open index: %w", err)
	}
	schema, err := bi.GetInternal(internalSchema)
	if err == nil && string(schema) != schemaVersion {
		err = fmt.Errorf("schema version %q, want %q", schema, schemaVersion)
	}
	var z []byte
	if err == nil {
		z, err = bi.GetInternal(internalZone)
	}
	if err == nil && string(z) != zone {
		err = fmt.Errorf("dates read in time zone %q, want %q", z, zone)
	}
	var c []byte
	if err == nil {
		c, err = bi.GetInternal(internalCommit)
	}
	if err == nil {
		_, err = bi.DocCount()
	}
	if err != nil {
		_ = bi.Close()
		return nil, "", fmt.Errorf("open index: %w", err)
	}
	return bi, string(c), nil
}

// checkLatest returns an error when the latest snapshot recorded in the
// index's root file cannot be loaded. Scorch would then fall back silently
// (but for a line on the standard logger) to an older snapshot, or to
// none: the index is damaged, and is rebuilt rather than trusted. The check
// runs on a read-only instance, because scorch's LoadSnapshot must not run
// alongside its persister.
func checkLatest(dir string) error {
	config := storeConfig()
	config["read_only"] = true
	bi, err := bleve.OpenUsing(dir, config)
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return fmt.Errorf("%w: %s", ErrLocked, dir)
		}
		return fmt.Errorf("open index: %w", err)
	}
	defer bi.Close()
	adv, err := bi.Advanced()
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	sc, ok := adv.(*scorch.Scorch)
	if !ok {
		return fmt.Errorf("open index: unexpected index type %T", adv)
	}
	epochs, err := sc.RootBoltSnapshotEpochs()
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	if len(epochs) == 0 {
		return nil
	}
	snap, err := sc.LoadSnapshot(epochs[0])
	if err != nil {
		return fmt.Errorf("open index: latest snapshot: %w", err)
	}
	return snap.Close()
}

// recreate removes whatever is at dir and creates an empty index there.
func recreate(dir, zone string) (bleve.Index, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("remove index: %w", err)
	}
	return create(dir, zone)
}

// create makes an empty index at dir, which must not exist, and records
// the schema version and the time zone in it.
func create(dir, zone string) (bleve.Index, error) {
	im, err := newMapping()
	if err != nil {
		return nil, fmt.Errorf("build index mapping: %w", err)
	}
	bi, err := bleve.NewUsing(dir, im, scorch.Name, scorch.Name, storeConfig())
	if err != nil {
		return nil, fmt.Errorf("create index: %w", err)
	}
	if err := bi.SetInternal(internalSchema, []byte(schemaVersion)); err != nil {
		_ = bi.Close()
		return nil, fmt.Errorf("create index: record schema: %w", err)
	}
	if err := bi.SetInternal(internalZone, []byte(zone)); err != nil {
		_ = bi.Close()
		return nil, fmt.Errorf("create index: record time zone: %w", err)
	}
	return bi, nil
}

// indexMapping returns the mapping of an open index.
func indexMapping(bi bleve.Index) (*mapping.IndexMappingImpl, error) {
	im, ok := bi.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return nil, fmt.Errorf("open index: unexpected mapping type %T", bi.Mapping())
	}
	return im, nil
}
