package gitstore

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/wikid/wikid/internal/gitstore/internal/gitdir"
	"github.com/wikid/wikid/internal/gitstore/internal/gitindex"
	"github.com/wikid/wikid/internal/gitstore/internal/objdir"
	"github.com/wikid/wikid/internal/gitstore/internal/refdir"
	"github.com/wikid/wikid/internal/wiki"
)

var _ wiki.Store = (*Store)(nil)

// Options configure a Store.
type Options struct {
	// Logger receives debug and warning records, in a "gitstore" group.
	// Nil discards them.
	Logger *slog.Logger
	// LockTimeout is how long to wait for a git lock file held by another
	// wikid process that is committing. Zero means 2s.
	LockTimeout time.Duration
	// ForeignLockWait is how long to wait for a git lock file that wikid did
	// not take (a git command's) before failing with LOCKED. Zero means
	// 100ms: long enough for a git command's brief lock, short enough that
	// a lock left by a crashed one is reported at once.
	ForeignLockWait time.Duration
	// CacheDir is where the derived state of repositories this user cannot
	// write is kept, one folder each; empty means os.UserCacheDir()/wikid.
	CacheDir string
}

// Store is a git repository: a checkout or a bare repository. It is safe
// for concurrent use.
type Store struct {
	layout
	cfg         gitdir.Config
	log         *slog.Logger
	lockTimeout time.Duration
	foreignWait time.Duration

	git      sync.Mutex // held around every go-git call
	storage  *filesystem.Storage
	packTime time.Time // mtime of objects/pack when go-git last listed packs
	closed   atomic.Bool

	retiring sync.WaitGroup // removes what landed commits left (see Commit)

	write    sync.Mutex // serializes Commit, guards the fields below
	tag      string     // names the temporary files of the journaled commit (see journal)
	indexIn  []byte     // the index read, reused from commit to commit
	indexOut []byte     // the index written
	racy     gitindex.RacyChecks
	held     []heldFile  // old checkout files still open (see hold)
	sweeper  *time.Timer // sweeps them once they are old enough

	reader  *objdir.Reader   // reads objects without go-git where it can
	objects *cache.ObjectLRU // go-git's cache of decoded objects
	trees   treeCache
	commits commitCache
	sizes   sizeCache
	// written holds the contents of the blobs the last commits wrote: the
	// next change of a note reads it from here, not from its new loose
	// object.
	written blobCache
	packed  refdir.Packed
	reviews reviewCache

	// unwritable says why this user cannot write the repository, "" when
	// they can; dir is where derived state lives (see Dir).
	unwritable string
	dir        string
}

// layout is where the parts of the repository live (see gitdir.Layout).
type layout struct {
	gitDir    string // HEAD, index, logs/HEAD: per worktree
	commonDir string // objects, refs, packed-refs, config: shared by worktrees
	workTree  string // "" for a bare repository
}

// readerCacheSize bounds the objects the object reader keeps to resolve
// deltas (git's own delta base cache is 96 MiB).
const readerCacheSize = 16 << 20

// objectCacheSize bounds go-git's cache of decoded objects (delta bases
// mostly); its default, 96 MiB, was most of what a history walk kept.
const objectCacheSize = 16 * cache.MiByte

// Open opens the repository containing path: a checkout (path may be any
// folder inside it, or a file) or a bare repository, and rolls back the
// commits that wikid processes killed in the middle of one left behind (see
// journal): their lock files, temporary files, and the checkout files and
// index entries they changed. It returns an error if there is no repository
// at or above path, or if the repository uses a format the store cannot
// write (sha256 objects, the reftable backend); a rollback that fails is
// logged, and reported by the next commit it blocks.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d, err := gitdir.Discover(path)
	if err != nil {
		return nil, err
	}
	cfg, err := gitdir.ReadConfig(d)
	if err != nil {
		return nil, err
	}
	l := layout{gitDir: d.GitDir, commonDir: d.CommonDir, workTree: d.WorkTree}
	if cfg.WorkTree != "" {
		l.workTree = cfg.WorkTree
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	timeout := opts.LockTimeout
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	foreign := opts.ForeignLockWait
	if foreign <= 0 {
		foreign = 100 * time.Millisecond
	}
	s := &Store{
		layout:      l,
		cfg:         cfg,
		log:         logger.WithGroup("gitstore"),
		lockTimeout: timeout,
		foreignWait: foreign,
	}
	s.unwritable, s.dir = derivedDir(d, opts.CacheDir)
	s.trees.Cost, s.trees.Budget = (*tree).cost, treeCacheBudget
	s.written.Cost, s.written.Budget = func(b []byte) int { return len(b) }, writtenBlobBudget
	s.sizes.Max = 1 << 18 // one int64 per blob: room for 100,000 notes and their recent versions
	s.reader = objdir.NewReader(s.objectsDir(), readerCacheSize)
	s.objects = cache.NewObjectLRU(objectCacheSize)
	s.storage = filesystem.NewStorageWithOptions(s.gitFS(), s.objects, filesystem.Options{MaxOpenDescriptors: 16})
	s.packTime = s.packDirTime()
	s.log.Debug("open", "git_dir", l.gitDir, "common_dir", l.commonDir, "work_tree", l.workTree)
	if s.unwritable == "" {
		s.recoverAll(ctx) // a repository no one can write has nothing to roll back
	}
	return s, nil
}

// gitFS is the filesystem go-git reads objects from: the common directory
// for shared files when the git directory is a linked worktree's.
func (s *Store) gitFS() *dotgit.RepositoryFilesystem {
	return dotgit.NewRepositoryFilesystem(osfs.New(s.gitDir), osfs.New(s.commonDir))
}

// Dir returns the folder of the repository's derived state: <gitdir>/wikid
// (".git/wikid" in a checkout, "wikid" inside a bare repository), or a
// folder in the user's cache when the repository is unwritable. It is not
// created.
func (s *Store) Dir() string { return s.dir }

// Unwritable says why this user cannot change the repository ("the git
// folder ... is not writable"), or "" when they can. Such a repository is
// served read-only, its derived state kept in the user's cache folder.
func (s *Store) Unwritable() string { return s.unwritable }

// Head returns the branch HEAD points at and its commit. It returns an error
// if HEAD cannot be read.
func (s *Store) Head(ctx context.Context) (wiki.Head, error) {
	if err := s.check(ctx); err != nil {
		return wiki.Head{}, err
	}
	return s.readHead()
}

// Close releases the repository's open files. Later calls return ErrClosed.
func (s *Store) Close(ctx context.Context) error {
	s.write.Lock()
	defer s.write.Unlock()
	s.retiring.Wait() // Commit adds to it under s.write
	s.git.Lock()
	defer s.git.Unlock()
	if s.closed.Swap(true) {
		return nil
	}
	for range 3 { // a late write put back holds the file it replaced
		s.sweep(time.Time{})
	}
	if s.sweeper != nil {
		s.sweeper.Stop()
		s.sweeper = nil
	}
	s.reader.Close()
	if err := s.storage.Close(); err != nil {
		return fmt.Errorf("close repository: %w", err)
	}
	return nil
}

// check returns the context's error or ErrClosed.
func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return ErrClosed
	}
	return nil
}

// packDirTime returns the modification time of objects/pack, which changes
// when git adds or removes a pack.
func (s *Store) packDirTime() time.Time {
	fi, err := os.Stat(filepath.Join(s.objectsDir(), "pack"))
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime()
}
