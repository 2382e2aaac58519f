package encoder

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestModel_forward_workers runs batches on one to five workers, which cut
// the rows and the heads among them, and wants the vectors of one worker,
// bit for bit: each row's arithmetic is the same whoever computes it.
func TestModel_forward_workers(t *testing.T) {
	tiny, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		m     *Model
		texts []string
	}{
		{tiny, []string{"the wiki", "a", "", "wikis!", "你好 cafe", "the the the the the the the the the the", "b c"}},
		{tiny, []string{"a b c a b"}},
	}
	if m := loadModelOrNil(t, models[0].file); m != nil {
		cases = append(cases, struct {
			m     *Model
			texts []string
		}{m, []string{"Where does the wiki keep its notes?", strings.Repeat("Git is the only source of truth. ", 9), "x"}})
	}
	for ci, c := range cases {
		var seqs [][]int32
		for _, text := range c.texts {
			ids, err := c.m.Tokenize(text, Passage)
			if err != nil {
				t.Fatal(err)
			}
			seqs = append(seqs, ids)
		}
		want := make([][]float32, len(seqs))
		c.m.forward(seqs, want, 1)
		for workers := 2; workers <= 5; workers++ {
			t.Run(fmt.Sprintf("case %d/%d workers", ci, workers), func(t *testing.T) {
				got := make([][]float32, len(seqs))
				c.m.forward(seqs, got, workers)
				for i := range got {
					if !slices.Equal(got[i], want[i]) {
						t.Errorf("%q: %v\nwith one worker: %v", c.texts[i], got[i][:4], want[i][:4])
					}
				}
			})
		}
	}
}

// TestModel_SetMaxWorkers checks that Embed gives the same vectors however
// many workers it may use, and that the bound is kept within GOMAXPROCS.
func TestModel_SetMaxWorkers(t *testing.T) {
	m, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"the wiki", "a b c", "你好", "cafe cafe cafe cafe cafe"}
	want, err := m.Embed(context.Background(), texts, Query)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 1000, -1, 0} {
		m.SetMaxWorkers(n)
		if w := m.workers(); w < 1 || (n > 0 && w > n) {
			t.Errorf("SetMaxWorkers(%d): %d workers", n, w)
		}
		got, err := m.Embed(context.Background(), texts, Query)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if !slices.Equal(got[i], want[i]) {
				t.Errorf("SetMaxWorkers(%d), %q: %v, want %v", n, texts[i], got[i], want[i])
			}
		}
	}
}
