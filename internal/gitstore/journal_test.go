package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/procid"
)

// TestStore_journals lists the journals among the files of the journal
// folder: a journal, named <pid>-<start>-<tag>.json, belongs to the process
// its name gives; a claimed one, <name>.json.recovering-<pid>-<start>, to
// the process recovering it; anything else is no journal.
func TestStore_journals(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, seeded(t, map[string]string{"a.md": "a\n"}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	files := []string{
		"12-34-aa.json",                      // a journal of process 12-34
		"12-34-bb.json.recovering-56-78",     // claimed by process 56-78
		"12-34-cc.json56-78",                 // no claim: the suffix is missing
		"12-34-dd.json.recovering-56",        // a claim without a start
		"12-34-ee.json.recovering-",          // a claim without a process
		"12-ff.json",                         // no tag
		"12-34-gg.txt",                       // not a journal
		"x-34-hh.json",                       // no pid
		"12-34-ii.json.recovering-56-78-90x", // a start that is not a number
	}
	if err := os.MkdirAll(s.txnDir(), 0o777); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(s.txnDir(), f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]procid.ID{}
	for _, j := range s.journals() {
		got[j.name] = j.owner
	}
	want := map[string]procid.ID{
		"12-34-aa": {PID: 12, Start: 34},
		"12-34-bb": {PID: 56, Start: 78},
	}
	if len(got) != len(want) {
		t.Errorf("journals %v, want %v", got, want)
	}
	for name, owner := range want {
		if got[name] != owner {
			t.Errorf("journal %s: owner %v, want %v", name, got[name], owner)
		}
	}
}
