package wiki

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/wikid/wikid/internal/note"
)

// maxLocalPaths is how many paths of each kind Status names.
const maxLocalPaths = 5

// LocalChanges are the notes of a checkout that differ from a commit: what
// the tools, which read commits, do not show.
type LocalChanges struct {
	// Modified counts the notes the commit has whose checked-out file
	// differs from it: edited, deleted or replaced and not committed.
	Modified int
	// Untracked counts the note files on disk that the commit lacks
	// (untracked, or only added to the index), ignored files left out.
	Untracked int
	// ModifiedPaths and UntrackedPaths are the first files of each, by path.
	ModifiedPaths  []string
	UntrackedPaths []string
	// Partial is set when the checkout has too many files to scan them all:
	// the counts are lower bounds.
	Partial bool
}

// localReuse is how many times its own duration a scan of the checkout is
// reused for, at most maxLocalReuse: a client polling wiki_status then
// spends at most a tenth of its time scanning.
const (
	localReuse    = 10
	maxLocalReuse = 5 * time.Second
)

// localCache holds the last scan of the checkout.
type localCache struct {
	mu   sync.Mutex // held during a scan: concurrent callers share it
	head string
	at   time.Time
	took time.Duration
	lc   *LocalChanges
}

// localChanges scans the checkout for notes that differ from head, or
// returns the last scan at the same head while it is younger than
// localReuse times its duration. It returns nil for a bare repository,
// and nil after logging when the scan fails: the status reports what it
// can.
func (w *Wiki) localChanges(ctx context.Context, head Head) *LocalChanges {
	if head.Bare {
		return nil
	}
	c := &w.local
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lc != nil && c.head == head.Commit && time.Since(c.at) < min(localReuse*c.took, maxLocalReuse) {
		return c.lc
	}
	start := time.Now()
	lc, err := w.store.LocalChanges(ctx, head.Commit, isNoteFile, maxLocalPaths)
	if err != nil {
		w.log.Warn("local changes not scanned", "err", err)
		return nil
	}
	c.head, c.at, c.took, c.lc = head.Commit, time.Now(), time.Since(start), &lc
	w.log.Debug("checkout scanned", "took", c.took, "modified", lc.Modified, "untracked", lc.Untracked, "partial", lc.Partial)
	return &lc
}

func isNoteFile(file string) bool {
	_, _, ok := note.SplitFileName(file)
	return ok
}

// checkoutChange returns how the checked-out file differs from its content
// at commit ("" when it does not, or cannot be told).
func (w *Wiki) checkoutChange(ctx context.Context, commit, file string) string {
	reason, err := w.store.CheckoutChange(ctx, commit, file)
	if err != nil {
		w.log.Debug("checkout not compared", "file", file, "err", err)
		return ""
	}
	if reason != "" {
		w.local.forget()
	}
	return reason
}

// forget drops the last scan: a read has just seen a change in the
// checkout, which the status must not then deny.
func (c *localCache) forget() {
	c.mu.Lock()
	c.lc = nil
	c.mu.Unlock()
}

// uncommittedNote turns the NOT_FOUND of a read at HEAD into one that says
// the note exists on disk, uncommitted, when one of its files does.
func (w *Wiki) uncommittedNote(ctx context.Context, commit, notePath, ext string, err error) error {
	var ne *Error
	if !errors.As(err, &ne) || ne.Code != CodeNotFound {
		return err
	}
	exts := noteExts
	if ext != "" {
		exts = []string{ext}
	}
	for _, e := range exts {
		file := note.FileName(notePath, e)
		if w.checkoutChange(ctx, commit, file) != "untracked" {
			continue
		}
		return Errorf(CodeNotFound, "no note %q is committed: the file %s exists on disk but is not committed, and wikid reads only commits", notePath, file).
			WithHint("commit it with git (git add %s && git commit), or move it aside and create the note with {write}", shellQuote(file))
	}
	return err
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(s string) string {
	if !strings.ContainsAny(s, " \t'\"\\$`!*?[]()&;|<>#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
