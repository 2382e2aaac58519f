// Package quality measures how well wikid finds the notes a question asks
// for: labelled sets of questions in users' own words over real public
// documentation, the corpora they are asked of, and the figures (top 5,
// top 10, mean reciprocal rank) that compare one ranking with another.
//
// The labelled sets live in fixtures/eval. The corpora are not part of
// wikid: a set names where its corpus comes from (a Go module, fetched
// through the module proxy, or a git repository at a commit, read from a
// clone), and Materialize copies its notes into a new repository.
//
// The tests measure every set with the models named in WIKID_EVAL
// (glove, encoder, or both, side by side) and hold each to a floor:
//
//	WIKID_EVAL=glove,encoder WIKID_EVAL_OBSIDIAN_HELP=clone-of-obsidian-help \
//	WIKID_EVAL_ANKI_MANUAL=clone-of-anki-manual go test -v -run Quality ./internal/quality
//
// A set whose clone is not named is skipped; the Docker CLI documentation
// and rclone's command reference come through the Go module proxy. Without WIKID_EVAL the tests measure
// GloVe alone, and nothing under -short: the sentence encoder takes
// minutes to embed a corpus on two cores. WIKID_EVAL_KEEP names a folder
// that keeps the corpora, their indexes and vectors between runs, and
// WIKID_EVAL_DUMP one that receives the raw rankings, for tuning.
package quality

import (
	"encoding/json"
	"fmt"
	"os"
)

// Set is a labelled set: questions and, for each, the notes that answer it.
type Set struct {
	Name   string
	About  string
	Source Source
	// Questions are asked of the corpus in the order given.
	Questions []Question
	// Unrelated are questions the corpus cannot answer: a semantic name
	// resolution should find no note for them.
	Unrelated []string
}

// Source says where a set's corpus comes from: a Go module at a version
// (Module, Version), or a git repository at a commit (Repository,
// Commit); Root is the folder of the corpus in it, "" for all of it.
type Source struct {
	Module, Version    string
	Repository, Commit string
	Root               string
}

// Question is a question as a user typed it, with the paths of the notes a
// person would cite in answer, best first, relative to the corpus root.
type Question struct {
	Question string
	Notes    []string
}

// Load reads a labelled set from a JSON file.
func Load(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s Set
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("labelled set %s: %w", path, err)
	}
	if s.Name == "" || len(s.Questions) == 0 {
		return nil, fmt.Errorf("labelled set %s: no name or no questions", path)
	}
	for i, q := range s.Questions {
		if q.Question == "" || len(q.Notes) == 0 {
			return nil, fmt.Errorf("labelled set %s: question %d has no text or no notes", path, i+1)
		}
	}
	return &s, nil
}
