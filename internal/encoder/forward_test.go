package encoder

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestModel_forward_workers runs batches on one to five workers, which cut
// the rows and the heads among them, and wants the vectors of each text
// embedded alone on one worker, bit for bit: each row's arithmetic is the
// same whoever computes it and whatever rows it is computed beside.
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
		{tiny, many(40, "the wiki a b c %d")}, // more rows than mlpRows
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
		for i := range seqs {
			c.m.forward(seqs[i:i+1], want[i:i+1], 1)
		}
		for workers := 1; workers <= 5; workers++ {
			t.Run(fmt.Sprintf("case %d/%d workers", ci, workers), func(t *testing.T) {
				got := make([][]float32, len(seqs))
				c.m.forward(seqs, got, workers)
				for i := range got {
					if !slices.Equal(got[i], want[i]) {
						t.Errorf("%q: %v\nalone: %v", c.texts[i], got[i][:4], want[i][:4])
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

// TestModel_EmbedIDs_panics gives EmbedIDs a token outside the vocabulary
// where a second worker would read it, and an empty and a long sequence:
// each panic must come on the caller's goroutine, where it can be
// recovered, not on a worker's, which would end the process.
func TestModel_EmbedIDs_panics(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	m, err := Load(tinyModel(t))
	if err != nil {
		t.Fatal(err)
	}
	bad := []int32{2, 5, 5, 5, 5, 5, 5, 5, 5, 5, 999, 3} // 12 rows: the 999 is the second worker's
	for _, ids := range [][]int32{bad, {2, -1, 3}, {}, make([]int32, 13)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("EmbedIDs(%v) did not panic", ids)
				}
			}()
			m.EmbedIDs(ids)
		}()
	}
}

// many returns n texts made by format from 0 to n-1.
func many(n int, format string) []string {
	texts := make([]string, n)
	for i := range texts {
		texts[i] = fmt.Sprintf(format, i)
	}
	return texts
}
