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
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/wikid/wikid/internal/wiki"
)

var (
	_ wiki.Index        = (*Index)(nil)
	_ wiki.DerivedStore = (*Index)(nil)
)

// Options configures an Index.
type Options struct {
	// Logger receives warnings, such as an index recreated because it was
	// corrupt. Nil discards them.
	Logger *slog.Logger
	// Location is the time zone the wiki reads dates without a zone in,
	// which the documents' dates depend on; default UTC. The index records
	// its name, and an index built in another zone is rebuilt.
	Location *time.Location
}

// Index is the bleve search index of a wiki. It is safe for concurrent use:
// searches run while Apply writes, and see the index before or after a
// whole Apply.
type Index struct {
	dir  string
	zone string // the name of Options.Location
	log  *slog.Logger

	// mu guards bi and im. Searches and Apply hold it for reading (bleve
	// orders them itself); Reset and Close hold it for writing, because
	// they replace or close bi.
	mu      sync.RWMutex
	bi      bleve.Index
	im      *mapping.IndexMappingImpl
	unsaved *unsaved // batches of bi not yet on disk

	commitMu sync.Mutex
	commit   string // the commit recorded in bi

	common commonOf   // the common words of bi, for phrases
	langs  langsOf    // the stem languages of bi
	dates  dateTables // git's dates by document number, for searches by date

	// writeMu serializes Apply and Reset, so that the recorded commit
	// follows the order of the calls.
	writeMu sync.Mutex
}

// Open opens the index at dir, creating it (and its parent directories)
// when it does not exist. An index that cannot be read, is corrupt or was
// written with another schema or in another time zone is removed and
// recreated empty, with a warning in the log: Commit then returns "" and the
// caller rebuilds.
// Open returns an error only when the index is in use by another process
// (ErrLocked) or when the directory cannot be created.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	zone := time.UTC.String()
	if opts.Location != nil {
		zone = opts.Location.String()
	}
	x := &Index{dir: dir, zone: zone, log: log.WithGroup("index"), unsaved: &unsaved{}}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("create index directory: %w", err)
	}
	bi, commit, err := openExisting(dir, zone)
	switch {
	case err == nil:
		x.bi, x.commit = bi, commit
	case errors.Is(err, ErrLocked):
		return nil, err
	case errors.Is(err, os.ErrNotExist):
		if x.bi, err = create(dir, zone); err != nil {
			return nil, err
		}
	default:
		x.log.Warn("search index unusable, recreating it empty", "dir", dir, "err", err)
		if x.bi, err = recreate(dir, zone); err != nil {
			return nil, err
		}
	}
	if x.im, err = indexMapping(x.bi); err != nil {
		_ = x.bi.Close()
		return nil, err
	}
	if b, err := x.bi.GetInternal(internalCommon); err == nil && b != nil {
		x.common.set(decodeCommon(b))
	}
	if b, err := x.bi.GetInternal(internalLangs); err == nil && b != nil {
		x.langs.set(decodeLangs(b))
	}
	return x, nil
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
func (x *Index) Len(ctx context.Context) (_ int, err error) {
	defer x.guard(&err)
	defer faultGuard()()
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
func (x *Index) Reset(ctx context.Context) (err error) {
	defer x.guard(&err)
	defer faultGuard()()
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
	if x.empty() {
		// Nothing to remove: a first build starts on the index Open
		// made. (Removing files that bleve had open also fails where the
		// file system will not delete an open file.)
		return nil
	}
	x.closeDamaged()
	x.bi = nil
	x.setCommit("")
	bi, err := recreate(x.dir, x.zone)
	if err != nil {
		return fmt.Errorf("reset index: %w", err)
	}
	im, err := indexMapping(bi)
	if err != nil {
		_ = bi.Close()
		return fmt.Errorf("reset index: %w", err)
	}
	x.bi, x.im, x.unsaved = bi, im, &unsaved{}
	x.common.set(nil)
	x.langs.set(nil)
	return nil
}

// empty reports whether the index holds nothing: no commit, no notes, no
// common words or languages recorded. The caller holds mu.
func (x *Index) empty() bool {
	n, err := x.bi.DocCount()
	return err == nil && n == 0 && x.Commit() == "" && x.common.get() == nil && len(x.langs.get()) == 0
}

// closeDamaged closes bleve's index for a Reset, which may be damaged: a
// fault closing it is logged, and the files are recreated anyway.
func (x *Index) closeDamaged() {
	var err error
	func() {
		defer x.guard(&err)
		defer faultGuard()()
		err = x.bi.Close()
	}()
	if err != nil {
		x.log.Warn("close index before reset", "err", err)
	}
}

// closeWait bounds how long Close waits for the last batches to reach
// the disk.
const closeWait = 10 * time.Second

// Close writes what the disk still lacks (waiting up to ten seconds, or
// until ctx is done; what is left then is re-applied on the next start)
// and releases the index; later calls return ErrClosed. Closing twice is
// not an error.
func (x *Index) Close(ctx context.Context) error {
	// Holding writeMu, no batch starts; searches go on while the disk
	// catches up.
	x.writeMu.Lock()
	defer x.writeMu.Unlock()
	x.mu.RLock()
	open, unsaved := x.bi != nil, x.unsaved
	x.mu.RUnlock()
	if !open {
		return nil
	}
	timer := time.NewTimer(closeWait)
	defer timer.Stop()
	select {
	case <-unsaved.saved():
	case <-ctx.Done():
		x.log.Warn("closing the index before its last changes reached the disk", "err", ctx.Err())
	case <-timer.C:
		x.log.Warn("closing the index before its last changes reached the disk", "waited", closeWait)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	err := x.bi.Close()
	x.bi = nil
	if err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}
