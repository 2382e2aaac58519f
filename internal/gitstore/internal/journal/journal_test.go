package journal

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wikid/wikid/internal/procid"
)

// TestList lists the journals among the files of the journal folder: a
// journal, named <pid>-<start>-<tag>.json, belongs to the process its name
// gives; a claimed one, <name>.json.recovering-<pid>-<start>, to the
// process recovering it; anything else is no journal.
func TestList(t *testing.T) {
	dir := t.TempDir()
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
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]procid.ID{}
	for _, j := range List(dir) {
		got[j.Name()] = j.Owner()
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

// TestJournal_Claim writes a journal, claims it, lists it as the
// claimer's, and gives it back under its own name.
func TestJournal_Claim(t *testing.T) {
	dir := t.TempDir()
	j := &Journal{Branch: "refs/heads/main", Commit: "c"}
	if err := Write(dir, j, nil); err != nil {
		t.Fatal(err)
	}
	if !j.Claim() {
		t.Fatal("the claim failed")
	}
	if filepath.Base(j.File()) == j.Name()+".json" {
		t.Errorf("claimed, the journal is still %s", j.File())
	}
	js := List(dir)
	if len(js) != 1 || js[0].Name() != j.Name() || js[0].Commit != "c" || js[0].Owner() != procid.Self() {
		t.Fatalf("listed %+v", js)
	}
	j.Unclaim()
	if filepath.Base(j.File()) != j.Name()+".json" {
		t.Errorf("given back, the journal is %s", j.File())
	}
	if err := j.Remove(); err != nil {
		t.Fatal(err)
	}
	if js := List(dir); len(js) != 0 {
		t.Errorf("removed, listed %+v", js)
	}
}
