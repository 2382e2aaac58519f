package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/noreplace"
	"github.com/wikid/wikid/internal/wiki"
)

// styledEditor saves lines into one note in one way, as a person's editor
// does, with no git lock, and commits the note with the git CLI after every
// four. The note must be there whenever it looks: an append creates the
// file if it is missing, as `>>` and fs.appendFile do, and a read that
// finds no note is counted.
type styledEditor struct {
	dir, note, style string
	quit, done       chan struct{}

	saved   []string // the lines it saved, in order
	missing int      // saves that found no note
	err     error
	trace   *noteTrace
}

func (e *styledEditor) run() {
	defer close(e.done)
	full := filepath.Join(e.dir, e.note)
	for i := 0; ; i++ {
		select {
		case <-e.quit:
			return
		default:
		}
		line := fmt.Sprintf("person %d", i)
		if e.err = e.save(full, line); errors.Is(e.err, fs.ErrNotExist) {
			e.missing++
			e.err = nil
			continue
		} else if e.err != nil {
			return
		}
		e.saved = append(e.saved, line)
		time.Sleep(time.Millisecond)
		if i%4 == 3 {
			if e.err = e.commit("by the person " + line); e.err != nil {
				return
			}
			e.trace.add("editor", "committed", 0, nil)
			time.Sleep(time.Duration(2+i%8) * time.Millisecond)
		}
	}
}

func (e *styledEditor) save(full, line string) error {
	switch e.style {
	case "append":
		f, err := os.OpenFile(full, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		_, err = f.WriteString(line + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case "in place": // as os.ReadFile and os.WriteFile do, traced
		r, err := os.Open(full)
		if err != nil {
			return err
		}
		b, err := io.ReadAll(r)
		e.trace.add("editor", "read", e.trace.numberOf(r), b)
		r.Close()
		if err != nil {
			return err
		}
		w, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		n := e.trace.numberOf(w)
		e.trace.add("editor", "truncated", n, nil)
		b = append(b, line+"\n"...)
		_, err = w.Write(b)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		e.trace.add("editor", "wrote", n, b)
		return err
	default: // rename over
		b, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		tmp := full + ".editor-tmp"
		if err := os.WriteFile(tmp, append(b, line+"\n"...), 0o644); err != nil {
			return err
		}
		return os.Rename(tmp, full)
	}
}

// commit commits the note as it is on disk, trying again when a wikid
// commit took the branch or the index meanwhile.
func (e *styledEditor) commit(subject string) error {
	var out string
	var err error
	for try := 0; try < 50; try++ {
		if out, err = gittest.TryGit(e.dir, "add", e.note); err == nil {
			if out, err = gittest.TryGit(e.dir, "commit", "-q", "--allow-empty", "-m", subject); err == nil {
				return nil
			}
		}
		if !strings.Contains(out, ".lock") && !strings.Contains(out, "cannot lock ref") {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("git commit: %w\n%s", err, out)
}

func (e *styledEditor) stop() {
	select {
	case <-e.quit:
	default:
		close(e.quit)
	}
	<-e.done
}

// assistant appends lines to the note through the store, as edit_note does,
// each from the note at HEAD, until stopped or edits were tried.
type assistant struct {
	trace                 *noteTrace
	name                  string
	acked                 []string
	ok, refused, conflict int
}

func (a *assistant) run(t testing.TB, s *Store, dir, note string, edits int, quit <-chan struct{}) error {
	for i := 0; i < edits; i++ {
		select {
		case <-quit:
			return nil
		default:
		}
		head, err := gittest.TryGit(dir, "rev-parse", "HEAD")
		if err != nil {
			return fmt.Errorf("rev-parse: %w", err)
		}
		head = strings.TrimSpace(head)
		content, err := gittest.TryGit(dir, "show", head+":"+note)
		if err != nil {
			return fmt.Errorf("show: %w", err)
		}
		line := fmt.Sprintf("%s %d", a.name, i)
		_, err = s.Commit(context.Background(), request(head, "edit", map[string]string{note: content + line + "\n"}))
		a.trace.add(a.name, fmt.Sprintf("commit %s: %v", line, err), 0, nil)
		switch {
		case err == nil:
			a.ok++
			a.acked = append(a.acked, line)
		case errors.Is(err, wiki.ErrHeadMoved):
			a.conflict++
		case wiki.CodeOf(err) == wiki.CodeLocalChanges, wiki.CodeOf(err) == wiki.CodeLocked:
			a.refused++
		default:
			return fmt.Errorf("edit %d: %w", i, err)
		}
		if i%8 == 7 {
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// TestStore_Commit_NoteNeverCut races each way an editor saves (appending,
// rewriting in place, renaming a new file over the note) and two
// assistants at once against edits of the same note through the store. At
// the end, once the person commits what their editor holds, every line the
// person saved and every line an assistant was told it added must be in the
// note's file and at HEAD: none cut off, none only in history or in a
// conflict copy, and the note never missing when the editor looks. A lost
// line prints the trace of how it was lost (see noteTrace).
//
// Where the system cannot swap two names in one step, the store links the
// old file aside and renames the new one over it: that fallback runs the
// same race.
func TestStore_Commit_NoteNeverCut(t *testing.T) {
	edits := 600
	if testing.Short() {
		edits = 120
	}
	for _, tc := range []struct {
		style      string
		assistants int
		fallback   bool
	}{{"append", 1, false}, {"in place", 1, false}, {"rename over", 1, false}, {"append", 2, false},
		// Without an exchange, a file renamed over the note between the
		// link and the rename is replaced (see noreplace.SwapByLink):
		// that fallback's guarantee does not cover a renaming editor.
		{"append", 1, true}, {"in place", 1, true}} {
		name := tc.style
		if tc.assistants > 1 {
			name = fmt.Sprintf("%s, %d assistants", tc.style, tc.assistants)
		}
		if tc.fallback {
			name += ", without exchange"
		}
		t.Run(name, func(t *testing.T) {
			if tc.fallback {
				swap = noreplace.SwapByLink
				defer func() { swap = noreplace.Swap }()
			}
			const note = "note.md"
			dir := seeded(t, map[string]string{note: "# Note\n"})
			tr := newNoteTrace()
			log, unhook := tr.install(filepath.Join(dir, note))
			defer unhook()
			s, err := Open(context.Background(), dir, Options{LockTimeout: 5 * time.Second, ForeignLockWait: 5 * time.Second, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(context.Background())
			ed := &styledEditor{dir: dir, note: note, style: tc.style, quit: make(chan struct{}), done: make(chan struct{}), trace: tr}
			go ed.run()
			defer ed.stop()

			as := make([]*assistant, tc.assistants)
			errs := make([]error, tc.assistants)
			var wg sync.WaitGroup
			for i := range as {
				as[i] = &assistant{name: fmt.Sprintf("assistant%c", 'A'+i), trace: tr}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs[i] = as[i].run(t, s, dir, note, edits, ed.quit)
				}()
			}
			wg.Wait()
			ed.stop()
			for _, err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			if ed.err != nil {
				t.Fatalf("the person's editor: %v", ed.err)
			}
			// The store lets go of the old files it held: what was written
			// to them late is merged into the note.
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if err := ed.commit("the person's last commit"); err != nil {
				t.Fatal(err)
			}

			file, err := os.ReadFile(filepath.Join(dir, note))
			if err != nil {
				t.Fatal(err)
			}
			tr.add("end", "read", 0, file)
			if head := gittest.Git(t, dir, "show", "HEAD:"+note); head != string(file) {
				t.Errorf("HEAD's note differs from the file after the person's commit:\n%s", gittest.Git(t, dir, "diff", "HEAD"))
			}
			in := map[string]bool{}
			for _, l := range strings.Split(string(file), "\n") {
				in[l] = true
			}
			// Without an exchange, a save in the microseconds between the
			// link and the rename is kept beside the note, as a conflict
			// copy (see noreplace.SwapByLink): kept, not in the note.
			inCopies := 0
			if tc.fallback {
				copies, _ := filepath.Glob(filepath.Join(dir, "note (conflict *).md"))
				for _, c := range copies {
					b, _ := os.ReadFile(c)
					for _, l := range strings.Split(string(b), "\n") {
						if !in[l] {
							in[l] = true
							inCopies++
						}
					}
				}
			}
			var lost []string
			ok, refused, moved := 0, 0, 0
			for _, a := range as {
				ok, refused, moved = ok+a.ok, refused+a.refused, moved+a.conflict
				for _, l := range a.acked {
					if !in[l] {
						lost = append(lost, l)
					}
				}
			}
			for _, l := range ed.saved {
				if !in[l] {
					lost = append(lost, l)
				}
			}
			copies, _ := filepath.Glob(filepath.Join(dir, "note (conflict *).md"))
			for _, c := range copies {
				b, _ := os.ReadFile(c)
				tr.add("end", "conflict copy "+filepath.Base(c), 0, b)
			}
			t.Logf("%d edits acknowledged, %d refused, %d lost the branch; the person saved %d lines; %d conflict copies (%d lines only there); the note was missing %d times",
				ok, refused, moved, len(ed.saved), len(copies), inCopies, ed.missing)
			if ok == 0 {
				t.Error("no edit was acknowledged: the race did not happen")
			}
			if ed.missing > 0 {
				t.Errorf("the editor found no note %d times", ed.missing)
			}
			if len(lost) > 0 {
				t.Errorf("%d lines are not in the note (acknowledged %d, saved %d): %s", len(lost), ok, len(ed.saved), strings.Join(lost, ", "))
				tr.dump(t, lost[0])
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".wikid-*")); len(left) > 0 {
				t.Errorf("files left aside: %v", left)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestStore_Commit_AppendWhileReplacing appends a line to a note, as `>>`
// does (creating the file if it is missing), at the moment the commit puts
// the note's new content in place: the append lands in the old file or the
// new one, and the note ends up with every line, the old ones, the
// assistant's and the person's.
func TestStore_Commit_AppendWhileReplacing(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\nbeta\n"})
	s := openStore(t, dir)
	var perr error
	testHookCrash = func(point string) {
		if point == "moved aside" || point == "swapped in" {
			f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				perr = err
				return
			}
			_, perr = f.WriteString("person\n")
			f.Close()
		}
	}
	defer func() { testHookCrash = nil }()
	_, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nbeta\nassistant\n"}))
	testHookCrash = nil
	if perr != nil {
		t.Fatal(perr)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := "alpha\nbeta\nperson\n"
	if err == nil {
		want = "alpha\nbeta\nassistant\nperson\n"
		if got := gittest.Git(t, dir, "show", "HEAD:a.md"); got != "alpha\nbeta\nassistant\n" {
			t.Errorf("HEAD has %q", got)
		}
	} else if wiki.CodeOf(err) != wiki.CodeLocalChanges {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": want})
}

// TestStore_Commit_MergesLateAppend appends to a note through a descriptor
// opened before a commit that appended to it too, after the commit: both
// lines end up in the note, the commit's first.
func TestStore_Commit_MergesLateAppend(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id := mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	if _, err := f.WriteString("late\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nlate\n"})
	if got := gittest.Git(t, dir, "show", id+":a.md"); got != "alpha\nassistant\n" {
		t.Errorf("the commit has %q", got)
	}
}

// TestStore_Commit_RepairsStaleSave saves a note, after a commit appended
// to it, from what the editor read before the commit, as an editor whose
// buffer is behind does: the commit's line comes back, beside the
// person's.
func TestStore_Commit_RepairsStaleSave(t *testing.T) {
	// The save comes right after the commit; a busy machine may delay it
	// past the window, which this test is not about.
	defer func(w time.Duration) { staleWindow = w }(staleWindow)
	staleWindow = time.Minute
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	read, err := os.ReadFile(filepath.Join(dir, "a.md"))
	if err != nil {
		t.Fatal(err)
	}
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	if err := os.WriteFile(filepath.Join(dir, "a.md"), append(read, "person\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nperson\nassistant\n"})
}

// TestStore_Commit_KeepsLaterRemoval removes the lines a commit added, in
// the person's editor, after the moment in which a save is taken for one
// from a stale buffer: the removal is the person's, and stays.
func TestStore_Commit_KeepsLaterRemoval(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	time.Sleep(staleWindow + 100*time.Millisecond)
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("alpha\nperson\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nperson\n"})
}
