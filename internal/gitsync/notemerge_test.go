package gitsync

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestMergeNote(t *testing.T) {
	base := "---\ntitle: Plan\ntags: [a, b]\nstatus: draft\nowner: ada\n---\n# Plan\n\nOne.\n\nTwo.\n\nThree.\n"
	tests := []struct {
		name, ours, theirs string
		want               string // "" for a conflict
		why                string // in the reason of a conflict
	}{
		{"different lines", strings.Replace(base, "One.", "One!", 1), strings.Replace(base, "Three.", "Three!", 1),
			strings.NewReplacer("One.", "One!", "Three.", "Three!").Replace(base), ""},
		{"same lines", strings.Replace(base, "Two.", "Two here.", 1), strings.Replace(base, "Two.", "Two there.", 1), "", "lines 11"},
		{"same change", strings.Replace(base, "Two.", "2.", 1), strings.Replace(base, "Two.", "2.", 1), strings.Replace(base, "Two.", "2.", 1), ""},
		{"tags as sets", strings.Replace(base, "tags: [a, b]", "tags: [a, b, c]", 1), strings.Replace(base, "tags: [a, b]", "tags: [b, d]", 1),
			strings.Replace(base, "tags: [a, b]", "tags: [b, c, d]", 1), ""},
		{"different keys", strings.Replace(base, "status: draft", "status: done", 1), strings.Replace(base, "owner: ada", "owner: bob", 1),
			strings.NewReplacer("status: draft", "status: done", "owner: ada", "owner: bob").Replace(base), ""},
		{"a key removed there", strings.Replace(base, "status: draft", "status: done", 1), strings.Replace(base, "owner: ada\n", "", 1),
			strings.NewReplacer("status: draft", "status: done", "owner: ada\n", "").Replace(base), ""},
		{"a key added there", strings.Replace(base, "status: draft", "status: done", 1), strings.Replace(base, "owner: ada\n", "owner: ada\npriority: 2\n", 1),
			strings.NewReplacer("status: draft", "status: done", "owner: ada\n", "owner: ada\npriority: 2\n").Replace(base), ""},
		{"the same key", strings.Replace(base, "status: draft", "status: done", 1), strings.Replace(base, "status: draft", "status: dropped", 1), "", `"status"`},
		{"frontmatter and body", strings.Replace(base, "status: draft", "status: done", 1), strings.Replace(base, "Three.", "Three!", 1),
			strings.NewReplacer("status: draft", "status: done", "Three.", "Three!").Replace(base), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := mergeNote([]byte(base), []byte(tt.ours), []byte(tt.theirs))
			if tt.want == "" {
				if got != nil || !strings.Contains(why, tt.why) {
					t.Errorf("merged %q (%q), want a conflict about %s", got, why, tt.why)
				}
				return
			}
			if why != "" || string(got) != tt.want {
				t.Errorf("mergeNote =\n%s(%s)\nwant\n%s", got, why, tt.want)
			}
		})
	}
}

func TestMergeSet(t *testing.T) {
	got := mergeSet([]string{"a", "B"}, []string{"a", "b", "c"}, []string{"A", "d"})
	if want := []string{"a", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("mergeSet = %q, want %q", got, want)
	}
}

// FuzzMergeNote checks that a merge never writes conflict markers, takes
// a side that alone changed, and keeps what both sides added.
func FuzzMergeNote(f *testing.F) {
	f.Add("---\ntags: [a]\n---\nx\ny\n", "---\ntags: [a, b]\n---\nx\ny\n", "---\ntags: [a]\n---\nx\ny\nz\n")
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nC\n")
	f.Add("", "x\n", "y\n")
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		got, why := mergeNote([]byte(base), []byte(ours), []byte(theirs))
		if why == "" && got == nil && ours != "" {
			t.Fatalf("no result and no reason")
		}
		if ours == base && why == "" && string(got) != theirs {
			t.Fatalf("ours unchanged, merged %q, want theirs %q", got, theirs)
		}
		if theirs == base && why == "" && string(got) != ours {
			t.Fatalf("theirs unchanged, merged %q, want ours %q", got, ours)
		}
		if why == "" && bytes.Contains(got, []byte("<<<<<<<")) && !strings.Contains(base+ours+theirs, "<<<<<<<") {
			t.Fatalf("conflict markers in %q", got)
		}
	})
}
