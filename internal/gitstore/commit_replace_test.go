package gitstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
)

// TestStore_Commit_KeepsEditDuringCommit changes a checkout file after the
// worktree check and before Commit puts the new files in place, as a
// person's editor may at any moment: the commit must fail with
// LOCAL_CHANGES naming the file, commit nothing, and leave every file as
// the person has it.
func TestStore_Commit_KeepsEditDuringCommit(t *testing.T) {
	seed := map[string]string{"a.md": "alpha\n", "dir/b.md": "b\n"}
	edit := map[string]string{"a.md": "alpha 2\n", "dir/b.md": "", "new.md": "n\n"}
	tests := []struct {
		name   string
		person func(dir string) error // what the person does while the commit runs
		want   map[string]string      // the files after the failed commit
	}{
		{"edit of a replaced file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "a.md"), []byte("alpha, edited\n"), 0o644)
		}, map[string]string{"a.md": "alpha, edited\n", "dir/b.md": "b\n", "new.md": ""}},
		{"save by rename over a replaced file", func(dir string) error {
			tmp := filepath.Join(dir, "a.md~")
			if err := os.WriteFile(tmp, []byte("alpha, saved\n"), 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, filepath.Join(dir, "a.md"))
		}, map[string]string{"a.md": "alpha, saved\n", "dir/b.md": "b\n", "new.md": ""}},
		{"edit of a removed file", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "dir/b.md"), []byte("b, edited\n"), 0o644)
		}, map[string]string{"a.md": "alpha\n", "dir/b.md": "b, edited\n", "new.md": ""}},
		{"a file made where a new one goes", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "new.md"), []byte("mine\n"), 0o644)
		}, map[string]string{"a.md": "alpha\n", "dir/b.md": "b\n", "new.md": "mine\n"}},
		{"removal of a replaced file", func(dir string) error {
			return os.Remove(filepath.Join(dir, "a.md"))
		}, map[string]string{"a.md": "", "dir/b.md": "b\n", "new.md": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := seeded(t, seed)
			s := openStore(t, dir)
			old := rev(t, dir, "HEAD")
			var perr error
			testHookCrash = func(point string) {
				if point == "files staged" {
					perr = tt.person(dir)
				}
			}
			defer func() { testHookCrash = nil }()
			_, err := s.Commit(context.Background(), request(old, "edit", edit))
			testHookCrash = nil
			if perr != nil {
				t.Fatal(perr)
			}
			wantCode(t, err, "LOCAL_CHANGES")
			if !strings.Contains(err.Error(), "while the commit was being made") {
				t.Errorf("error %q does not say the file changed during the commit", err)
			}
			if head := rev(t, dir, "HEAD"); head != old {
				t.Errorf("HEAD moved to %s", head)
			}
			checkDisk(t, dir, tt.want)
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
			gittest.Fsck(t, dir)
		})
	}
}

// TestStore_Commit_RollbackKeepsEdit makes the branch move after the files
// are in place, so that Commit puts the checkout back, while a person edits
// a file the commit wrote: the person's edit must stay, the other files
// go back.
func TestStore_Commit_RollbackKeepsEdit(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n", "c.md": "c\n"})
	s := openStore(t, dir)
	old := rev(t, dir, "HEAD")
	testHookBeforeMoveRef = func() {
		os.WriteFile(filepath.Join(dir, "a.md"), []byte("alpha 2, edited\n"), 0o644)
		gittest.Git(t, dir, "update-ref", "refs/heads/main", gittest.Git(t, dir, "commit-tree", "-p", old, "-m", "elsewhere", old+"^{tree}")[:40])
	}
	defer func() { testHookBeforeMoveRef = nil }()
	_, err := s.Commit(context.Background(), request(old, "edit", map[string]string{"a.md": "alpha 2\n", "c.md": "c 2\n", "n.md": "n\n"}))
	testHookBeforeMoveRef = nil
	if err == nil {
		t.Fatal("the commit succeeded though the branch moved")
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha 2, edited\n", "c.md": "c\n", "n.md": ""})
	gittest.Fsck(t, dir)
}

// TestStore_Commit_KeepsWriteThroughOpenFile writes to a note through a
// descriptor its editor opened before the commit, just after the commit
// swapped the new file in: the old file, changed, must be the note again,
// and the commit fail with LOCAL_CHANGES.
func TestStore_Commit_KeepsWriteThroughOpenFile(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	old := rev(t, dir, "HEAD")
	f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	testHookCrash = func(point string) {
		if point == "swapped in" {
			f.WriteString("mine\n")
		}
	}
	defer func() { testHookCrash = nil }()
	_, err = s.Commit(context.Background(), request(old, "edit", map[string]string{"a.md": "alpha 2\n"}))
	testHookCrash = nil
	wantCode(t, err, "LOCAL_CHANGES")
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nmine\n"})
	if head := rev(t, dir, "HEAD"); head != old {
		t.Errorf("HEAD moved to %s", head)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_Commit_KeepsLateWrite writes to a note through a descriptor its
// editor opened before a commit replaced the note, after the commit, next
// to the line the commit changed: the old file is held open, and the line
// written, which cannot merge in place with the commit's change, goes at
// the end of the note once the store lets go of it.
func TestStore_Commit_KeepsLateWrite(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id := mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha 2\n"}))
	if _, err := f.WriteString("late\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha 2\nlate\n"})
	if got := gittest.Git(t, dir, "show", id+":a.md"); got != "alpha 2\n" {
		t.Errorf("the commit has %q", got)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_Commit_RollbackKeepsSaves saves a note in a person's editor
// while a commit that replaced it fails, then again from what the editor
// reads at the moment the rollback has put back what it puts back (see
// renameBack): an editor that rewrites the note in place at once, and one
// that renames a new file over it once the store let go of the note (later
// than a stale save is repaired, see repairStale). The note must end up
// with both saves, as the editor made them: neither is lost, and neither
// kept only in a conflict copy.
func TestStore_Commit_RollbackKeepsSaves(t *testing.T) {
	for _, style := range []string{"in place", "rename over"} {
		t.Run(style, func(t *testing.T) {
			dir := seeded(t, map[string]string{"a.md": "alpha\n"})
			s := openStore(t, dir)
			old := rev(t, dir, "HEAD")
			full := filepath.Join(dir, "a.md")
			save := func(b []byte, line string) error {
				b = append(b, line+"\n"...)
				if style == "in place" {
					return os.WriteFile(full, b, 0o644)
				}
				if err := os.WriteFile(full+"~", b, 0o644); err != nil {
					return err
				}
				return os.Rename(full+"~", full)
			}
			var read []byte
			var perr error
			testHookBeforeMoveRef = func() {
				b, err := os.ReadFile(full)
				if perr = err; err == nil {
					perr = save(b, "person 1")
				}
				// The branch moves: the commit fails and is rolled back.
				gittest.Git(t, dir, "update-ref", "refs/heads/main", gittest.Git(t, dir, "commit-tree", "-p", old, "-m", "elsewhere", old+"^{tree}")[:40])
			}
			testHookCrash = func(point string) {
				if point != "put back" || perr != nil {
					return
				}
				if read, perr = os.ReadFile(full); perr == nil && style == "in place" {
					perr = save(read, "person 2")
				}
			}
			defer func() { testHookCrash, testHookBeforeMoveRef = nil, nil }()
			_, err := s.Commit(context.Background(), request(old, "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
			testHookCrash, testHookBeforeMoveRef = nil, nil
			if err == nil {
				t.Fatal("the commit succeeded though the branch moved")
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			if perr == nil && style != "in place" {
				perr = save(read, "person 2")
			}
			if perr != nil {
				t.Fatal(perr)
			}
			if read == nil {
				t.Fatal("the rollback did not reach the point where it has put back the old file")
			}
			checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nperson 1\nperson 2\n"})
			if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
				t.Errorf("conflict copies: %v", copies)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

// TestStore_Commit_KeepsAppendToCommitsFile appends a line to a note after
// the worktree check, so that the commit fails and gives the note back,
// and another in the moment the commit's file is in place, as an editor
// appending twice does: both lines end up in the note, in their order,
// none only in a conflict copy.
func TestStore_Commit_KeepsAppendToCommitsFile(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	appendLine := func(line string) error {
		f, err := os.OpenFile(filepath.Join(dir, "a.md"), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteString(line + "\n")
		return err
	}
	var mu sync.Mutex // the objects are written beside the checkout
	var perr error
	seen := map[string]bool{}
	testHookCrash = func(point string) {
		mu.Lock()
		defer mu.Unlock()
		// Only the commit's first swap: the merge after it swaps too.
		line := map[string]string{"files staged": "person 1", "swapped in": "person 2"}[point]
		if line != "" && !seen[point] && perr == nil {
			seen[point] = true
			perr = appendLine(line)
		}
	}
	defer func() { testHookCrash = nil }()
	_, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	testHookCrash = nil
	if perr != nil {
		t.Fatal(perr)
	}
	wantCode(t, err, "LOCAL_CHANGES")
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nperson 1\nperson 2\n"})
	if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
		t.Errorf("conflict copies: %v", copies)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_putLate merges what was written late to a file that is no
// longer the note into the note, as the person saved it since: the lines
// the late write added, to what the commit wrote or to what the note was
// given back, go at the end of the note; a late write that changed lines
// of both is kept beside it.
func TestStore_putLate(t *testing.T) {
	tests := []struct {
		name, late, want string
		copied           bool
	}{
		{"appended to the commit's file", "alpha\nassistant\nlate\n", "alpha\nperson 1\nperson 2\nlate\n", false},
		{"saved in place from the note given back", "alpha\nperson 1\nlate\n", "alpha\nperson 1\nperson 2\nlate\n", false},
		{"changed a line", "alpha, changed\nlate\n", "alpha\nperson 1\nperson 2\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := seeded(t, map[string]string{"a.md": "alpha\nperson 1\nperson 2\n"})
			s := openStore(t, dir)
			full := filepath.Join(dir, "a.md")
			s.write.Lock()
			s.putLate(&heldFile{full: full, base: []byte("alpha\nassistant\n"), given: []byte("alpha\nperson 1\n")}, []byte(tt.late), true)
			s.write.Unlock()
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkDisk(t, dir, map[string]string{"a.md": tt.want})
			copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md"))
			if copied := len(copies) > 0; copied != tt.copied {
				t.Errorf("conflict copies: %v", copies)
			}
		})
	}
}

// TestStore_Commit_KeepsSaveOverCommitsFile saves a note by renaming a new
// file over it after the worktree check, so that the commit fails and
// gives the note back, and again in the moment the commit's file is in
// place; the editor then reads the note as the commit gives it back, and
// saves from that once the store let go of it. The second save must be
// what the commit leaves, so that the third keeps it.
func TestStore_Commit_KeepsSaveOverCommitsFile(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	full := filepath.Join(dir, "a.md")
	save := func(b []byte, line string) error {
		if err := os.WriteFile(full+"~", append(b, line+"\n"...), 0o644); err != nil {
			return err
		}
		return os.Rename(full+"~", full)
	}
	var mu sync.Mutex // the objects are written beside the checkout
	var perr error
	var read []byte
	seen := map[string]bool{}
	testHookCrash = func(point string) {
		mu.Lock()
		defer mu.Unlock()
		if seen[point] || perr != nil {
			return
		}
		seen[point] = true
		switch point {
		case "files staged":
			if perr = save([]byte("alpha\n"), "person 1"); perr == nil {
				read, perr = os.ReadFile(full)
			}
		case "swapped in":
			perr = save(read, "person 2")
		case "given back":
			read, perr = os.ReadFile(full)
		}
	}
	defer func() { testHookCrash = nil }()
	_, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	testHookCrash = nil
	if perr != nil {
		t.Fatal(perr)
	}
	wantCode(t, err, "LOCAL_CHANGES")
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := save(read, "person 3"); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nperson 1\nperson 2\nperson 3\n"})
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_Commit_KeepsSaveGivenBack saves a note after the worktree
// check, so that the commit fails and gives the person's save back; the
// editor read the commit's file in the moment it was in place, and saves
// from it right after the save was given back (in place, or renaming a
// new file over the note). The note must end up with both saves: the
// first is not lost under the second, nor kept only in a conflict copy.
func TestStore_Commit_KeepsSaveGivenBack(t *testing.T) {
	for _, style := range []string{"in place", "rename over"} {
		t.Run(style, func(t *testing.T) {
			defer func(w time.Duration) { staleWindow = w }(staleWindow)
			staleWindow = time.Minute // a busy machine: the save is soon after
			dir := seeded(t, map[string]string{"a.md": "alpha\n"})
			s := openStore(t, dir)
			full := filepath.Join(dir, "a.md")
			save := func(b []byte, line string) error {
				b = append(append([]byte(nil), b...), line+"\n"...)
				if style == "in place" {
					return os.WriteFile(full, b, 0o644)
				}
				if err := os.WriteFile(full+"~", b, 0o644); err != nil {
					return err
				}
				return os.Rename(full+"~", full)
			}
			var mu sync.Mutex // the objects are written beside the checkout
			var perr error
			var read []byte
			seen := map[string]bool{}
			testHookCrash = func(point string) {
				mu.Lock()
				defer mu.Unlock()
				if seen[point] || perr != nil {
					return
				}
				seen[point] = true
				switch point {
				case "files staged":
					perr = save([]byte("alpha\n"), "person 1")
				case "swapped in":
					read, perr = os.ReadFile(full)
				case "given back":
					perr = save(read, "person 2")
				}
			}
			defer func() { testHookCrash = nil }()
			_, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
			testHookCrash = nil
			if perr != nil {
				t.Fatal(perr)
			}
			wantCode(t, err, "LOCAL_CHANGES")
			if !seen["given back"] {
				t.Fatal("the commit did not give the save back")
			}
			if err := s.Close(context.Background()); err != nil {
				t.Fatal(err)
			}
			checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nperson 2\nperson 1\n"})
			if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
				t.Errorf("conflict copies: %v", copies)
			}
			if l := leftovers(t, dir); len(l) > 0 {
				t.Errorf("left behind: %v", l)
			}
		})
	}
}

// TestStore_Commit_KeepsSaveUnderStaleSave saves a note in place after the
// worktree check, so that the commit fails and gives the person's save
// back; in the moment the commit's file is in place, the editor reads it
// and saves into it, and saves again, from what it saved there, right
// after the note was given back: the second save lacks the first, which it
// never read. Every save must end up in the note, none only in a conflict
// copy.
func TestStore_Commit_KeepsSaveUnderStaleSave(t *testing.T) {
	defer func(w time.Duration) { staleWindow = w }(staleWindow)
	staleWindow = time.Minute // a busy machine: the save is soon after
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	full := filepath.Join(dir, "a.md")
	var buffer []byte // what the editor holds
	save := func(line string) error {
		buffer = append(buffer, line+"\n"...)
		return os.WriteFile(full, buffer, 0o644)
	}
	var mu sync.Mutex // the objects are written beside the checkout
	var perr error
	seen := map[string]bool{}
	testHookCrash = func(point string) {
		mu.Lock()
		defer mu.Unlock()
		if seen[point] || perr != nil {
			return
		}
		seen[point] = true
		switch point {
		case "files staged":
			buffer = []byte("alpha\n")
			perr = save("person 1")
		case "swapped in":
			if buffer, perr = os.ReadFile(full); perr == nil {
				perr = save("person 2")
			}
		case "given back":
			perr = save("person 3")
		}
	}
	defer func() { testHookCrash = nil }()
	_, err := s.Commit(context.Background(), request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	testHookCrash = nil
	if perr != nil {
		t.Fatal(perr)
	}
	wantCode(t, err, "LOCAL_CHANGES")
	if !seen["given back"] {
		t.Fatal("the commit did not give the save back")
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nperson 2\nperson 3\nperson 1\n"})
	if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
		t.Errorf("conflict copies: %v", copies)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_Commit_KeepsLateWriteWhileSaving writes to a note's old file,
// through a descriptor opened before a commit replaced it, before the
// commit lets go of it; the person's editor saves the note in place each
// time the store is about to put the merge of that write in. The late
// write must still reach the note once the editor pauses, with every save,
// none only in a conflict copy.
func TestStore_Commit_KeepsLateWriteWhileSaving(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	full := filepath.Join(dir, "a.md")
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var perr error
	saves := 0
	defer func(inner func(src, dst, aside string) error) { swap = inner }(swap)
	inner := swap
	swap = func(src, dst, aside string) error {
		if strings.HasPrefix(callers(), "replaceChecked<writeOver<putLate") && saves < 3 && perr == nil {
			saves++
			var b []byte
			if b, perr = os.ReadFile(full); perr == nil {
				perr = os.WriteFile(full, append(b, fmt.Sprintf("person %d\n", saves)...), 0o644)
			}
		}
		return inner(src, dst, aside)
	}
	testHookBeforeMoveRef = func() {
		if _, err := f.WriteString("late\n"); err != nil {
			perr = err
		}
	}
	defer func() { testHookBeforeMoveRef = nil }()
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	testHookBeforeMoveRef = nil
	if perr != nil {
		t.Fatal(perr)
	}
	if saves < 3 {
		t.Fatalf("the editor saved %d times as the store merged", saves)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nperson 1\nperson 2\nperson 3\nlate\n"})
	if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
		t.Errorf("conflict copies: %v", copies)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}

// TestStore_Commit_WaitsForSaveUnderWay writes to a note's old file,
// through a descriptor opened before a commit replaced it, once the commit
// is made; when the store comes to merge that write into the note, the
// person's editor is rewriting the note in place: it has emptied it, and
// its bytes land only once the store puts something in place. The store must not merge onto
// the emptied note: no note without the commit's lines is ever in place,
// and the note ends with every line, in order.
func TestStore_Commit_WaitsForSaveUnderWay(t *testing.T) {
	dir := seeded(t, map[string]string{"a.md": "alpha\n"})
	s := openStore(t, dir)
	full := filepath.Join(dir, "a.md")
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	mustCommit(t, s, request(rev(t, dir, "HEAD"), "edit", map[string]string{"a.md": "alpha\nassistant\n"}))
	if _, err := f.WriteString("late\n"); err != nil { // after the store let go of the name
		t.Fatal(err)
	}
	read, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	editor, err := os.OpenFile(full, os.O_WRONLY|os.O_TRUNC, 0) // the save begins
	if err != nil {
		t.Fatal(err)
	}
	defer editor.Close()
	var mu sync.Mutex // the stale-save checks run on timers
	var perr error
	var cut []string
	saved := false
	save := func() {
		if !saved && perr == nil {
			saved = true
			_, perr = editor.Write(append(read, "person\n"...))
		}
	}
	testHookCrash = func(point string) {
		mu.Lock()
		defer mu.Unlock()
		if point != "swapped in" {
			return
		}
		if b, _ := os.ReadFile(full); !strings.Contains(string(b), "assistant\n") {
			cut = append(cut, string(b))
		}
		save()
	}
	defer func() { testHookCrash = nil }()
	s.write.Lock()
	s.sweep(time.Now().Add(time.Hour)) // as the sweeper does, the save under way
	s.write.Unlock()
	mu.Lock()
	testHookCrash = nil
	save()
	mu.Unlock()
	if perr != nil {
		t.Fatal(perr)
	}
	if err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(cut) > 0 {
		t.Errorf("a cut-down note was in place: %q", cut)
	}
	checkDisk(t, dir, map[string]string{"a.md": "alpha\nassistant\nperson\nlate\n"})
	if copies, _ := filepath.Glob(filepath.Join(dir, "a (conflict *).md")); len(copies) > 0 {
		t.Errorf("conflict copies: %v", copies)
	}
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("left behind: %v", l)
	}
}
