package encoder

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModel_Quality asks fixtures/semantic's questions of its 20 notes,
// each question a description of one note without its words, and counts
// the questions whose note the model ranks first, and in the top 3.
func TestModel_Quality(t *testing.T) {
	fixtures := filepath.Join("..", "..", "fixtures", "semantic")
	var set []struct{ Question, Note string }
	data, err := os.ReadFile(filepath.Join(fixtures, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &set); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(fixtures, "notes"))
	if err != nil {
		t.Fatal(err)
	}
	var names, notes []string
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(fixtures, "notes", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, strings.TrimSuffix(e.Name(), ".md"))
		notes = append(notes, string(b))
	}
	questions := make([]string, len(set))
	for i, q := range set {
		questions[i] = q.Question
	}
	for _, mf := range models {
		t.Run(filepath.Base(mf.file), func(t *testing.T) {
			m := loadModel(t, mf.file)
			nv, err := m.Embed(context.Background(), notes, Passage)
			if err != nil {
				t.Fatal(err)
			}
			qv, err := m.Embed(context.Background(), questions, Query)
			if err != nil {
				t.Fatal(err)
			}
			first, top3 := 0, 0
			for i, q := range set {
				var want float64
				for j, name := range names {
					if name == q.Note {
						want = cosine(qv[i], nv[j])
					}
				}
				rank := 1
				for j, name := range names {
					if name != q.Note && cosine(qv[i], nv[j]) > want {
						rank++
					}
				}
				if rank == 1 {
					first++
				}
				if rank <= 3 {
					top3++
				} else {
					t.Logf("%q: its note %s ranks %d", q.Question, q.Note, rank)
				}
			}
			t.Logf("%s: %d of %d questions find their note first, %d in the top 3", m.Name(), first, len(set), top3)
			if top3 < len(set)*9/10 {
				t.Errorf("%d of %d questions find their note in the top 3, want 90%%", top3, len(set))
			}
		})
	}
}
