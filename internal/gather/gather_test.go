package gather

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/grammar"
	"github.com/wikid/wikid/internal/note"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		question string
		want     []Term
	}{
		{"What did we decide about the launch?", []Term{{"decide", "decid"}, {"launch", "launch"}}},
		{"Who was involved, and who was involved?", []Term{{"involved", "involv"}}},
		{"What does backfill mean?", []Term{{"backfill", "backfil"}}},
		{"Q2 NAS plan", []Term{{"q2", ""}, {"nas", ""}, {"plan", "plan"}}},
		{"田中さんの担当は?", []Term{{"田中さんの担当は", ""}}},
		{"the a of", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			if got := Terms(tt.question); !slices.Equal(got, tt.want) {
				t.Errorf("Terms = %+v, want %+v", got, tt.want)
			}
		})
	}
	t.Run("at most maxTerms, the longest, in order", func(t *testing.T) {
		q := "aa bbbbbbbbbb cc dd ee ff gg hh ii jj kk ll mm nnnnnnnnn oo"
		got := Terms(q)
		if len(got) != maxTerms || got[0].Word != "aa" || got[1].Word != "bbbbbbbbbb" || got[len(got)-1].Word != "nnnnnnnnn" {
			t.Errorf("Terms = %+v", got)
		}
	})
}

func TestQuery(t *testing.T) {
	got := Query(Terms(`Why "NOT" OR tag:x launch (decided)?`))
	want := `"tag" OR launch* OR decid*` // stop words and single letters left out
	if got != want {
		t.Errorf("Query = %s, want %s", got, want)
	}
	if _, err := grammar.Parse(got, time.UTC); err != nil {
		t.Errorf("parse %s: %v", got, err)
	}
}

func TestTerm_matches(t *testing.T) {
	decid := Term{"decided", "decid"}
	nas := Term{"nas", ""}
	cjk := Term{"担当", ""}
	for _, tt := range []struct {
		term Term
		word string
		want bool
	}{
		{decid, "decide", true}, {decid, "deciding", true}, {decid, "decision", false},
		{nas, "nas", true}, {nas, "nasa", false},
		{cjk, "田中さんの担当は", true}, {cjk, "田中", false},
	} {
		if got := tt.term.matches(tt.word); got != tt.want {
			t.Errorf("%+v.matches(%q) = %v", tt.term, tt.word, got)
		}
	}
}

const planNote = "---\ntitle: Alpha plan\n---\n\nIntro line.\n\n# Alpha plan\n\nThe plan.\n\n## Risks\n\n### Technical\n\nThe backfill may saturate the network.\nThrottle it.\n\nPeople\n------\n\nTwo on leave.\n\n## Empty\n\n"

func TestSplit(t *testing.T) {
	got := Split(note.Parse("plan.md", []byte(planNote)))
	want := []Section{
		{Heading: "", Start: 5, End: 5, Lines: []string{"Intro line."}},
		{Heading: "Alpha plan", own: "Alpha plan", Start: 9, End: 9, Lines: []string{"The plan."}},
		{Heading: "Alpha plan > Risks > Technical", own: "Technical", Start: 15, End: 16, Lines: []string{"The backfill may saturate the network.", "Throttle it."}},
		{Heading: "Alpha plan > People", own: "People", Start: 21, End: 21, Lines: []string{"Two on leave."}},
	}
	if len(got) != len(want) {
		t.Fatalf("Split = %+v", got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Heading != w.Heading || g.own != w.own || g.Start != w.Start || g.End != w.End || !slices.Equal(g.Lines, w.Lines) {
			t.Errorf("section %d = %+v, want %+v", i, g, w)
		}
	}
}

// FuzzSplit checks that every section's lines are the file's lines
// Start to End, whatever the note holds.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{planNote, "", "# a\r\nb\r\n", "---\nx: [\n---\n# h\n", "a\n===\nb", "```\n# no\n```\n# yes\ntext"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		lines := strings.Split(src, "\n")
		for _, s := range Split(note.Parse("n.md", []byte(src))) {
			if s.Start < 1 || s.End < s.Start || s.End > len(lines) || len(s.Lines) != s.End-s.Start+1 {
				t.Fatalf("section %+v of %d lines", s, len(lines))
			}
			for i, l := range s.Lines {
				if file := strings.TrimSuffix(lines[s.Start-1+i], "\r"); file != l {
					t.Fatalf("line %d: %q, file has %q", s.Start+i, l, file)
				}
			}
		}
	})
}

// FuzzQuery checks that the query made of any question's terms parses.
func FuzzQuery(f *testing.F) {
	for _, s := range []string{"What did we decide?", `"a" OR (b`, "tag:x -y", "田中 太郎", "NOT AND OR"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, question string) {
		terms := Terms(question)
		if len(terms) == 0 {
			return
		}
		if q := Query(terms); q != "" {
			if _, err := grammar.Parse(q, time.UTC); err != nil {
				t.Fatalf("Query(%q) = %s: %v", question, q, err)
			}
		}
	})
}

func section(heading string, start int, lines ...string) Section {
	own := heading
	if i := strings.LastIndex(heading, " > "); i >= 0 {
		own = heading[i+3:]
	}
	return Section{Heading: heading, own: own, Start: start, End: start + len(lines) - 1, Lines: lines}
}

func TestPack(t *testing.T) {
	terms := Terms("When does the backfill start?")
	cands := []Candidate{
		{Path: "plan", Prior: 1, Sections: []Section{
			section("Plan", 3, "The plan for the project."),
			section("Plan > Backfill", 7, "The backfill starts in February.", "It copies 40 TB."),
		}},
		{Path: "copy", Prior: 0.8, Sections: []Section{
			section("Copy", 3, "The backfill starts in February.", "It copies 40 TB."), // the same text
		}},
		{Path: "glossary", Prior: 0.7, Sections: []Section{
			section("Glossary > Backfill", 5, "The backfill copies old data into a new store."),
		}},
	}
	picks, used := Pack(cands, terms, 1000, 100)
	var got []string
	for _, p := range picks {
		got = append(got, cands[p.Note].Path+":"+p.Heading)
	}
	want := []string{"plan:Plan > Backfill", "glossary:Glossary > Backfill"}
	if !slices.Equal(got, want) {
		t.Errorf("picks %q, want %q", got, want)
	}
	sum := 0
	for _, p := range picks {
		sum += p.Tokens
	}
	if used != sum || used > 1000 {
		t.Errorf("used %d, picks cost %d", used, sum)
	}
	if p := picks[0]; p.Start != 7 || p.End != 8 || p.Text != "The backfill starts in February.\nIt copies 40 TB." {
		t.Errorf("first pick %+v", p)
	}

	t.Run("a long section is cut to the lines around its terms", func(t *testing.T) {
		var lines []string
		for i := range 200 {
			if i == 120 {
				lines = append(lines, "The backfill starts in February.")
				continue
			}
			lines = append(lines, "Filler line that says nothing of interest here.")
		}
		cands := []Candidate{{Path: "long", Prior: 1, Sections: []Section{section("Long", 10, lines...)}}}
		picks, used := Pack(cands, terms, 200, 100)
		if len(picks) != 1 || used > 200 {
			t.Fatalf("picks %+v, used %d", picks, used)
		}
		p := picks[0]
		if p.Start > 130 || p.End < 130 || !strings.Contains(p.Text, "backfill") || p.Text != strings.Join(lines[p.Start-10:p.End-9], "\n") {
			t.Errorf("pick lines %d-%d: %q", p.Start, p.End, p.Text)
		}
	})

	t.Run("nothing fits a tiny budget", func(t *testing.T) {
		if picks, used := Pack(cands, terms, 10, 100); len(picks) != 0 || used != 0 {
			t.Errorf("picks %+v, used %d", picks, used)
		}
	})
}

// TestPack_meaning checks that a section within a note's run nearest in
// meaning scores more, and is chosen even without one of the terms.
func TestPack_meaning(t *testing.T) {
	sections := func(path string) []Section {
		return []Section{
			{Heading: "Intro", Start: 1, End: 2, Lines: []string{"Some words about " + path + ".", "More words."}},
			{Heading: "Colours", Start: 4, End: 5, Lines: []string{"Highlight a block with a tint.", "It stands out."}},
		}
	}
	terms := Terms("warning box")
	cands := []Candidate{
		{Path: "a", Prior: 1, Sections: sections("warning")},
		{Path: "b", Prior: 1, Sections: sections("box"), Nearest: &Near{Start: 4, End: 5, Score: 0.8}},
	}
	picks, _ := Pack(cands, terms, 1000, 10)
	var got []string
	for _, p := range picks {
		got = append(got, cands[p.Note].Path+":"+p.Heading)
	}
	if !slices.Contains(got, "b:Colours") {
		t.Errorf("picks %q: the section nearest in meaning is missing", got)
	}
	without, _ := Pack([]Candidate{{Path: "b", Prior: 1, Sections: sections("box")}}, terms, 1000, 10)
	for _, p := range without {
		if p.Heading == "Colours" {
			t.Errorf("without meaning, a section with no term was chosen")
		}
	}
}
