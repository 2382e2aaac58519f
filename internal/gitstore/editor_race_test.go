package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// editor saves lines into one note as a person's editor does, with no git
// lock: appending, rewriting the file in place (what Obsidian's autosave
// does), or writing a new file and renaming it over the note (what many
// other editors do), in turn. After every four lines it commits the note
// with the git CLI and pauses, so that the store's edits can land in
// between. It runs in its
// own goroutine and never touches the testing.T.
type editor struct {
	*person
	note  string
	saved []string // the lines it saved, in order
}

func (e *editor) run() {
	defer close(e.done)
	full := filepath.Join(e.dir, e.note)
	for i := 0; ; i++ {
		select {
		case <-e.quit:
			return
		default:
		}
		line := fmt.Sprintf("person %d", i)
		// A commit that replaces the note swaps it: the note is never
		// missing, and a save that finds none fails the test.
		if e.err = e.save(full, line, i%3); e.err != nil {
			return
		}
		e.saved = append(e.saved, line)
		time.Sleep(time.Millisecond)
		if i%4 == 3 { // a pause: the person commits, then reads
			if e.err = e.commit(e.note, "by the person "+line); e.err != nil {
				return
			}
			time.Sleep(time.Duration(5+i%16) * time.Millisecond)
		}
	}
}

// commit commits the note as it is on disk, as person.commit does for a
// file of its own (without writing it first).
func (e *editor) commit(name, subject string) error {
	for {
		if _, err := e.git("add", name); err != nil {
			return err
		}
		lost, err := e.git("commit", "-q", "--allow-empty", "-m", subject)
		if err != nil || !lost {
			return err
		}
		if _, err := e.git("read-tree", "--reset", "HEAD"); err != nil {
			return err
		}
	}
}

// save adds line to the file full in one of three ways.
func (e *editor) save(full, line string, how int) error {
	switch how {
	case 0: // append
		f, err := os.OpenFile(full, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, err = f.WriteString(line + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	case 1: // read, then write the whole file in place
		b, err := os.ReadFile(full)
		if err != nil {
			return err
		}
		return os.WriteFile(full, append(b, line+"\n"...), 0o644)
	default: // read, write a new file, rename it over
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

// TestStore_Commit_RacesEditor edits a note through the store, as an
// assistant's edit_note does, while a person's editor saves lines into the
// same note without any git lock and commits it now and then. Every line the
// person saved must end up in the file or in a commit, and every failed edit
// must fail with LOCAL_CHANGES (the file differs from HEAD, or changed while
// the commit was being made), LOCKED, or ErrHeadMoved. It makes 1,000
// edits (about 30 s under the race detector), 100 with -short, and goes on,
// up to ten times as many, until both an acknowledged and a refused edit
// happened: a count, not a duration, so that a busy machine makes it slower
// but not weaker.
func TestStore_Commit_RacesEditor(t *testing.T) {
	edits := 1000
	if testing.Short() {
		edits = 100
	}
	const note = "note.md"
	dir := seeded(t, map[string]string{note: "# Note\n"})
	s, err := Open(context.Background(), dir, Options{LockTimeout: 5 * time.Second, ForeignLockWait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())

	ed := &editor{person: &person{dir: dir, quit: make(chan struct{}), done: make(chan struct{})}, note: note}
	go ed.run()
	defer ed.stop()

	var ok, localChanges, raced, locked, moved int
	var acked []string
	for i := 0; i < edits || (ok == 0 || localChanges == 0) && i < 10*edits; i++ {
		head, err := gittest.TryGit(dir, "rev-parse", "HEAD")
		if err != nil {
			t.Fatalf("rev-parse: %v\n%s", err, head)
		}
		head = strings.TrimSpace(head)
		content, err := gittest.TryGit(dir, "show", head+":"+note)
		if err != nil {
			t.Fatalf("show: %v\n%s", err, content)
		}
		line := fmt.Sprintf("assistant %d", i)
		req := request(head, "edit", map[string]string{note: content + line + "\n"})
		_, err = s.Commit(context.Background(), req)
		switch {
		case err == nil:
			ok++
			acked = append(acked, line)
		case errors.Is(err, wiki.ErrHeadMoved):
			moved++
		case wiki.CodeOf(err) == wiki.CodeLocalChanges:
			localChanges++
			if strings.Contains(err.Error(), "while the commit was being made") {
				raced++
			}
		case wiki.CodeOf(err) == wiki.CodeLocked:
			locked++
		default:
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	ed.stop()
	s.Close(context.Background()) // puts back what was written late to the files it held
	if ed.err != nil {
		t.Fatalf("the person's editor: %v", ed.err)
	}
	t.Logf("%d edits acknowledged, %d refused with LOCAL_CHANGES (%d of them changed during the commit), %d LOCKED, %d HEAD moved; the person saved %d lines",
		ok, localChanges, raced, locked, moved, len(ed.saved))
	if ok == 0 || localChanges == 0 {
		t.Errorf("the race did not happen: %d edits acknowledged, %d refused", ok, localChanges)
	}

	// Every line is in the file or in a commit of the branch.
	file, err := os.ReadFile(filepath.Join(dir, note))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(file), "\n") {
		have[l] = true
	}
	for _, l := range strings.Split(gittest.Git(t, dir, "log", "-p", "--format=", "HEAD", "--", note), "\n") {
		if rest, ok := strings.CutPrefix(l, "+"); ok {
			have[rest] = true
		}
	}
	// What was saved in the moment a commit had the note aside, and could
	// not go back in its place, is kept beside it as a conflict copy.
	copies, _ := filepath.Glob(filepath.Join(dir, "note (conflict * saved during a commit*).md"))
	inCopies := 0
	for _, c := range copies {
		b, _ := os.ReadFile(c)
		for _, l := range strings.Split(string(b), "\n") {
			if !have[l] {
				have[l] = true
				inCopies++
			}
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".wikid-*")); len(left) > 0 {
		t.Errorf("files left aside: %v", left)
	}
	t.Logf("%d conflict copies, holding %d lines found nowhere else", len(copies), inCopies)
	var lost []string
	for _, l := range ed.saved {
		if !have[l] {
			lost = append(lost, l)
		}
	}
	if len(lost) > 0 {
		t.Errorf("%d of the %d lines the person saved are in no commit and not in the file: %s", len(lost), len(ed.saved), strings.Join(lost, ", "))
	}
	for _, l := range acked {
		if !have[l] {
			t.Errorf("acknowledged %q is in no commit", l)
		}
	}
	gittest.Fsck(t, dir)
}
