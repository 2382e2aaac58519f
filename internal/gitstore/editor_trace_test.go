package gitstore

import (
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// noteTrace records what each side of the editor-style campaign read and
// wrote of the note, in order: the editor's reads and writes (with the
// file's number, so that a write to a file already swapped out shows), the
// store's swaps (with who called them), its crash points and its log.
// When a line is lost, the events around its loss are printed: which path
// last wrote the note before the line was gone.
type noteTrace struct {
	mu     sync.Mutex
	start  time.Time
	events []traceEvent
	files  []os.FileInfo // the files seen, numbered by numberOf
}

// traceEvent is one event of a noteTrace: who did what, to which file (see
// numberOf; 0 for none), and the content read or written.
type traceEvent struct {
	at        time.Duration
	who, what string
	file      uint64
	content   string
}

func newNoteTrace() *noteTrace { return &noteTrace{start: time.Now()} }

// add records an event; a nil trace records nothing.
func (tr *noteTrace) add(who, what string, file uint64, content []byte) {
	if tr == nil {
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.events = append(tr.events, traceEvent{time.Since(tr.start), who, what, file, string(content)})
}

// readNumbered reads a file and names it, for the trace.
func (tr *noteTrace) readNumbered(name string) ([]byte, uint64) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0
	}
	defer f.Close()
	b, _ := io.ReadAll(f)
	return b, tr.numberOf(f)
}

// numberOf numbers the file open as f, the same number for the same file
// (whatever its name now), from 1 in the order the trace first saw them.
func (tr *noteTrace) numberOf(f *os.File) uint64 {
	fi, err := f.Stat()
	if tr == nil || err != nil {
		return 0
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for i := len(tr.files) - 1; i >= 0; i-- { // the latest first: most often the one
		if os.SameFile(tr.files[i], fi) {
			return uint64(i + 1)
		}
	}
	tr.files = append(tr.files, fi)
	return uint64(len(tr.files))
}

// callers names the store's functions that called the function that
// called callers, innermost first.
func callers() string {
	pc := make([]uintptr, 8)
	n := runtime.Callers(3, pc)
	frames := runtime.CallersFrames(pc[:n])
	var names []string
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndex(f.Function, ".")+1:]
		if strings.Contains(f.Function, "gitstore.") && !strings.HasPrefix(name, "func") {
			names = append(names, name)
		}
		if !more || len(names) == 4 {
			break
		}
	}
	return strings.Join(names, "<")
}

// install hooks the store's swaps, crash points and log to the trace for
// the note at full, and returns the logger to open the store with and a
// function that takes the hooks off.
func (tr *noteTrace) install(full string) (*slog.Logger, func()) {
	inner := swap
	swap = func(src, dst, aside string) error {
		in, inNum := tr.readNumbered(src)
		out, outNum := tr.readNumbered(dst)
		err := inner(src, dst, aside)
		by := callers()
		tr.add("wikid", fmt.Sprintf("swap in (%s, err %v)", by, err), inNum, in)
		tr.add("wikid", "swap out", outNum, out)
		return err
	}
	testHookCrash = func(point string) {
		b, n := tr.readNumbered(full)
		tr.add("wikid", "at "+point, n, b)
	}
	log := slog.New(slog.NewTextHandler(traceLog{tr}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	return log, func() { swap, testHookCrash = inner, nil }
}

type traceLog struct{ tr *noteTrace }

func (l traceLog) Write(p []byte) (int, error) {
	l.tr.add("log", strings.TrimSpace(string(p)), 0, nil)
	return len(p), nil
}

// dump prints the events around the loss of line: all of them from a
// little before the editor's save of it to well after the first read of
// the note that lacks it, then the store's swaps, its log and the events
// whose content has the line, up to the end (the note and its conflict
// copies as the campaign found them).
func (tr *noteTrace) dump(t *testing.T, line string) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	has := func(e traceEvent) bool { return strings.Contains("\n"+e.content, "\n"+line+"\n") }
	saved, lost := -1, len(tr.events)-1
	for i, e := range tr.events {
		if saved < 0 && e.who == "editor" && e.what == "wrote" && has(e) {
			saved = i
		}
		if saved >= 0 && i > saved && e.who == "editor" && e.what == "read" && !has(e) {
			lost = i
			break
		}
	}
	if saved < 0 {
		t.Logf("trace: the editor never wrote %q", line)
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "trace of %q (%d events; saved at %d, first read without it at %d):\n", line, len(tr.events), saved, lost)
	later := 0
	for i := max(0, saved-25); i < len(tr.events); i++ {
		e := tr.events[i]
		if i >= max(lost+8, saved+150) {
			if e.who == "editor" || (e.who != "log" && e.who != "end" && !has(e) && !strings.Contains(e.what, "swap")) || later > 80 {
				continue
			}
			later++
		}
		lines := strings.Split(strings.TrimSuffix(e.content, "\n"), "\n")
		tail := lines[max(0, len(lines)-3):]
		mark := " "
		if e.content != "" && has(e) {
			mark = "+"
		} else if e.who != "log" {
			mark = "-"
		}
		fmt.Fprintf(&b, "%5d %9.3fms %s %-9s %-70s file %-4d %4d lines %s %q\n", i, float64(e.at.Microseconds())/1000, mark, e.who, e.what, e.file, len(lines), hashOf(e.content), tail)
	}
	t.Log(b.String())
}

// hashOf is a short hash of a content, to tell contents apart in a dump.
func hashOf(content string) string {
	h := fnv.New32a()
	h.Write([]byte(content))
	return fmt.Sprintf("%08x", h.Sum32())
}
