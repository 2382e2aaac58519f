package wiki_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// pageSize is the unit tmpfs allocates in.
var pageSize = int64(os.Getpagesize())

// filler takes the space of a tmpfs: leave grows it to fill the disk and
// shrinks it by pages pages, so that exactly that many are free.
type filler struct {
	tb testing.TB
	f  *os.File
}

func newFiller(tb testing.TB, disk string) *filler {
	tb.Helper()
	f, err := os.Create(filepath.Join(disk, "filler"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { f.Close() })
	return &filler{tb: tb, f: f}
}

func (fl *filler) leave(pages int64) {
	fl.tb.Helper()
	end, err := fl.f.Seek(0, io.SeekEnd)
	if err != nil {
		fl.tb.Fatal(err)
	}
	page := make([]byte, pageSize)
	for {
		_, err := fl.f.WriteAt(page, end)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			fl.tb.Fatal(err)
		}
		end += pageSize
	}
	if end < pages*pageSize {
		fl.tb.Fatalf("the filler holds %d pages, fewer than the %d to free", end/pageSize, pages)
	}
	if err := fl.f.Truncate(end - pages*pageSize); err != nil {
		fl.tb.Fatal(err)
	}
}

func (fl *filler) free() {
	fl.tb.Helper()
	if err := fl.f.Truncate(0); err != nil {
		fl.tb.Fatal(err)
	}
}

// leftovers lists the temporary and lock files that a failed commit must
// not leave in the repository, and journals of transactions.
func leftovers(tb testing.TB, dir string) []string {
	tb.Helper()
	var found []string
	err := filepath.WalkDir(filepath.Join(dir, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if !d.IsDir() && (strings.HasPrefix(name, ".wikid-") || strings.HasPrefix(name, "tmp_obj_") ||
			strings.HasSuffix(name, ".lock") || filepath.Base(filepath.Dir(p)) == "txn") {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return found
}

// fullDiskWiki returns a wiki over a checkout on a tmpfs of its own, the
// checkout and the tmpfs; it skips the test where a tmpfs cannot be
// mounted. Its search and history indexes are kept off the tmpfs, so that
// their writes take no pages between the filling and the write, and the
// running wiki holds no file open for writing on it.
func fullDiskWiki(t *testing.T, files map[string]string) (w *wiki.Wiki, dir, disk string) {
	t.Helper()
	ctx := context.Background()
	disk = gittest.TinyDisk(t, 4<<20)
	dir = filepath.Join(disk, "wiki")
	gittest.Git(t, disk, "init", "-q", "-b", "main", "--template=", dir)
	gittest.Commit(t, dir, "seed", files)
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err = wiki.Open(ctx, depsIn(t, store, t.TempDir(), nil, nil), wiki.Options{
		Author:    wiki.Identity{Name: "Ada Author", Email: "ada@example.com"},
		Committer: wiki.Identity{Name: "wikid", Email: "wikid@example.com"},
		Now:       func() time.Time { return time.Date(2024, 6, 1, 10, 30, 0, 0, time.UTC) },
		Logger:    slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	return w, dir, disk
}

// incompressible returns about n bytes of a note that compresses badly, so
// that its blob, its checked-out file and their temporary files take
// several pages each.
func incompressible(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.WriteString("# Full\n\n")
	for b.Len() < n {
		fmt.Fprintf(&b, "%x\n", rng.Uint64())
	}
	return b.String()
}

// TestWiki_Write_FullDisk writes a note on a repository whose disk has 0,
// 1, 2, ... pages free, until the write fits: every write that does not fit
// fails with NO_SPACE naming the file it could not write, leaves HEAD, the
// index, the checkout and git fsck as they were, and leaves no temporary
// file, lock or journal behind; the one that fits makes one commit. After
// the disk is emptied, writes work again; with the disk remounted
// read-only, a write is READ_ONLY. The repository is on a tmpfs of its
// own, so the test runs where it may mount one (as root on Linux, as CI
// runs) and skips elsewhere.
func TestWiki_Write_FullDisk(t *testing.T) {
	tests := []struct {
		name      string
		overwrite bool
	}{
		{"a new note", false},
		{"a note replaced", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			w, dir, disk := fullDiskWiki(t, map[string]string{"index.md": "# Home\n", "notes/full.md": incompressible(7, 12<<10)})
			path, content := "notes/new", incompressible(1, 12<<10)
			if tt.overwrite {
				path = "notes/full"
			}
			fill := newFiller(t, disk)
			head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
			committed := false
			for pages := int64(0); pages <= 100 && !committed; pages++ {
				fill.leave(pages)
				before := captureState(t, dir)
				req := write(path, content)
				req.Overwrite = tt.overwrite
				_, err := w.Write(ctx, req)
				if err == nil {
					t.Logf("the write fits in %d free pages of %d bytes", pages, pageSize)
					committed = true
					break
				}
				if wiki.CodeOf(err) != wiki.CodeNoSpace {
					t.Fatalf("with %d pages free: error %v (code %s), want NO_SPACE", pages, err, wiki.CodeOf(err))
				}
				if !errors.Is(err, syscall.ENOSPC) || !errors.Is(err, wiki.ErrNoSpace) {
					t.Errorf("with %d pages free: %v is not ENOSPC and ErrNoSpace", pages, err)
				}
				var e *wiki.Error
				if !errors.As(err, &e) || !strings.HasPrefix(e.Message, "no space left on the device: "+dir+"/") ||
					!strings.HasPrefix(e.Hint, "free space on the disk that holds "+dir) || !strings.HasSuffix(e.Hint, ", then retry") {
					t.Errorf("with %d pages free: message %q, hint %q", pages, e.Message, e.Hint)
				}
				t.Logf("%d pages free: %s", pages, strings.TrimPrefix(e.Message, "no space left on the device: "+dir+"/"))
				captureState(t, dir).assertEqual(t, before)
				if l := leftovers(t, dir); len(l) > 0 {
					t.Errorf("with %d pages free, a failed write left %q", pages, l)
				}
				gittest.Fsck(t, dir)
			}
			if !committed {
				t.Fatal("the write never fitted")
			}
			if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", head+"..HEAD")); n != "1" {
				t.Errorf("%s commits after the write, want 1", n)
			}
			if got := gittest.Git(t, dir, "show", "HEAD:"+path+".md"); got != content {
				t.Errorf("the note holds %d bytes, want %d", len(got), len(content))
			}
			gittest.Fsck(t, dir)
			if st := captureState(t, dir).status; st != "" {
				t.Errorf("git status not clean after the write:\n%s", st)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("the write left %q", l)
			}

			fill.leave(0)
			_, err := w.Write(ctx, write("notes/second", content))
			wantCode(t, err, wiki.CodeNoSpace)
			fill.free()
			if _, err := w.Write(ctx, write("notes/second", content)); err != nil {
				t.Fatalf("after the space was freed: %v", err)
			}
			checkRepo(t, dir)

			// The same disk, remounted read-only under the running wiki
			// (which needs no file open for writing on it). The files a
			// commit replaced are held open for a while, and removed files
			// still open make the remount busy: it is tried again until
			// they are let go.
			fill.f.Close()
			for try := 0; ; try++ {
				err := syscall.Mount("tmpfs", disk, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, "")
				if err == nil {
					break
				}
				if !errors.Is(err, syscall.EBUSY) || try == 100 {
					t.Fatalf("remount read-only: %v", err)
				}
				time.Sleep(100 * time.Millisecond)
			}
			before := captureState(t, dir)
			_, err = w.Write(ctx, write("notes/third", "# Third\n"))
			wantCode(t, err, wiki.CodeReadOnly)
			if !errors.Is(err, syscall.EROFS) || !strings.HasPrefix(err.Error(), "READ_ONLY: the file system is read-only: "+dir+"/") {
				t.Errorf("on a read-only file system: %v", err)
			}
			captureState(t, dir).assertEqual(t, before)
			gittest.Fsck(t, dir)
			if err := syscall.Mount("tmpfs", disk, "", syscall.MS_REMOUNT, ""); err != nil {
				t.Fatalf("remount read-write: %v", err)
			}
			if _, err := w.Write(ctx, write("notes/third", "# Third\n")); err != nil {
				t.Fatalf("after the remount read-write: %v", err)
			}
		})
	}
}
