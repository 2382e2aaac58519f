package index

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/wikid/wikid/internal/wiki"
)

var _ wiki.Index = (*Index)(nil)

// Options configures an Index.
type Options struct {
	// Logger receives warnings, such as an index recreated because it was
	// corrupt. Nil discards them.
	Logger *slog.Logger
}

// Index is the bleve search index of a wiki. It is safe for concurrent use:
// searches run while Apply writes, and see the index before or after a
// whole Apply.
type Index struct {
	dir string
	log *slog.Logger

	// mu guards bi and im. Searches and Apply hold it for reading (bleve
	// orders them itself); Reset and Close hold it for writing, because
	// they replace or close bi.
	mu      sync.RWMutex
	bi      bleve.Index
	im      *mapping.IndexMappingImpl
	unsaved *unsaved // batches of bi not yet on disk

	commitMu sync.Mutex
	commit   string // the commit recorded in bi

	// writeMu serializes Apply and Reset, so that the recorded commit
	// follows the order of the calls.
	writeMu sync.Mutex
}

// storeConfig is the configuration of bleve's scorch store, at creation
// and on every open. bolt_timeout bounds the wait for the lock on the root
// file: a second process with the same index open is an error, not a hang.
// unsafe_batch makes a batch return before it is on disk (see unsaved).
// Keeping a single snapshot means a damaged segment cannot make scorch fall
// back silently to an older state: the index then opens without its
// schema version and is recreated, with a warning.
func storeConfig() map[string]any {
	return map[string]any{
		"bolt_timeout":       "2s",
		"numSnapshotsToKeep": 1,
		"unsafe_batch":       true, // see unsaved
	}
}

// Open opens the index at dir, creating it (and its parent directories)
// when it does not exist. An index that cannot be read, is corrupt or was
// written with another schema is removed and recreated empty, with a
// warning in the log: Commit then returns "" and the caller rebuilds.
// Open returns an error only when the index is in use by another process
// (ErrLocked) or when the directory cannot be created.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	x := &Index{dir: dir, log: log.WithGroup("index"), unsaved: &unsaved{}}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	bi, commit, err := openExisting(dir)
	switch {
	case err == nil:
		x.bi, x.commit = bi, commit
	case errors.Is(err, ErrLocked):
		return nil, err
	case errors.Is(err, os.ErrNotExist):
		if x.bi, err = create(dir); err != nil {
			return nil, err
		}
	default:
		x.log.Warn("search index unusable, recreating it empty", "dir", dir, "err", err)
		if x.bi, err = recreate(dir); err != nil {
			return nil, err
		}
	}
	im, ok := x.bi.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		_ = x.bi.Close()
		return nil, fmt.Errorf("open index: unexpected mapping type %T", x.bi.Mapping())
	}
	x.im = im
	return x, nil
}

// openExisting opens the index at dir and checks its schema. It returns an
// error wrapping os.ErrNotExist when there is no index, ErrLocked when
// another process holds it, and another error when it is unusable.
func openExisting(dir string) (bi bleve.Index, commit string, err error) {
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
func recreate(dir string) (bleve.Index, error) {
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("remove index: %w", err)
	}
	return create(dir)
}

// create makes an empty index at dir, which must not exist, and records
// the schema version in it.
func create(dir string) (bleve.Index, error) {
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
	return bi, nil
}

// Commit returns the commit the index reflects, "" when it is empty or was
// just recreated.
func (x *Index) Commit() string {
	x.commitMu.Lock()
	defer x.commitMu.Unlock()
	return x.commit
}

// Len returns the number of indexed notes. It returns ErrClosed after
// Close.
func (x *Index) Len(ctx context.Context) (int, error) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.bi == nil {
		return 0, ErrClosed
	}
	n, err := x.bi.DocCount()
	if err != nil {
		return 0, fmt.Errorf("count notes: %w", err)
	}
	return int(n), nil
}

// Reset empties the index, for a rebuild: Commit returns "" afterwards.
// Searches wait for it. It returns ErrClosed after Close, or an error when
// the index cannot be removed or created again.
func (x *Index) Reset(ctx context.Context) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.bi == nil {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := x.bi.Close(); err != nil {
		x.log.Warn("close index before reset", "err", err)
	}
	x.bi = nil
	x.setCommit("")
	bi, err := recreate(x.dir)
	if err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	x.bi = bi
	x.im = bi.Mapping().(*mapping.IndexMappingImpl)
	x.unsaved = &unsaved{}
	return nil
}

// closeWait bounds how long Close waits for the last batches to reach
// the disk.
const closeWait = 10 * time.Second

// Close writes what the disk still lacks (waiting up to ten seconds, or
// until ctx is done; what is left then is re-applied on the next start)
// and releases the index; later calls return ErrClosed. Closing twice is
// not an error.
func (x *Index) Close(ctx context.Context) error {
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.bi == nil {
		return nil
	}
	timer := time.NewTimer(closeWait)
	defer timer.Stop()
	select {
	case <-x.unsaved.saved():
	case <-ctx.Done():
		x.log.Warn("closing the index before its last changes reached the disk", "err", ctx.Err())
	case <-timer.C:
		x.log.Warn("closing the index before its last changes reached the disk", "waited", closeWait)
	}
	err := x.bi.Close()
	x.bi = nil
	if err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}
