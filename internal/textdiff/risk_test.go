package textdiff

import (
	"strings"
	"testing"
)

func TestAssess(t *testing.T) {
	ten, twenty, thousand := numbered(10), numbered(20), numbered(1000)
	rewrite := func(s string, lines ...int) string {
		for _, i := range lines {
			s = replaceLine(s, i, "changed\n")
		}
		return s
	}
	tests := []struct {
		name        string
		files       []FileDiff
		wantRisk    Risk
		wantSummary string
	}{
		{"no files", nil, Low, "no changes"},
		{"unchanged file", []FileDiff{{"n.md", "n.md", []byte(ten), []byte(ten)}}, Low, "no changes"},
		{"create", []FileDiff{{"", "new.md", nil, []byte("a\nb\nc\n")}}, Low, "1 file: +3 -0 lines; creates new.md"},
		{"only additions", []FileDiff{{"n.md", "n.md", []byte(ten), []byte(ten + "x\ny\n")}}, Low, "1 file: +2 -0 lines"},
		{"content into an empty file", []FileDiff{{"n.md", "n.md", nil, []byte("x\n")}}, Low, "1 file: +1 -0 lines"},
		{"rewrites 5%", []FileDiff{{"n.md", "n.md", []byte(twenty), []byte(rewrite(twenty, 3))}}, Low, "1 file: +1 -1 lines"},
		{"rewrites 10%", []FileDiff{{"n.md", "n.md", []byte(ten), []byte(rewrite(ten, 3))}}, Medium,
			"1 file: +1 -1 lines; removes or rewrites 1 of 10 lines of n.md"},
		{"rewrites 50%", []FileDiff{{"n.md", "n.md", []byte(ten), []byte(rewrite(ten, 1, 3, 5, 7, 9))}}, Medium,
			"1 file: +5 -5 lines; removes or rewrites 5 of 10 lines of n.md"},
		{"rewrites 60%", []FileDiff{{"n.md", "n.md", []byte(ten), []byte(rewrite(ten, 1, 3, 5, 7, 9, 10))}}, High,
			"1 file: +6 -6 lines; removes or rewrites 6 of 10 lines of n.md"},
		{"empties a file", []FileDiff{{"n.md", "n.md", []byte(ten), nil}}, High,
			"1 file: +0 -10 lines; removes or rewrites 10 of 10 lines of n.md"},
		{"removes 101 lines of 1000", []FileDiff{{"n.md", "n.md", []byte(thousand), []byte(numbered(899))}}, High,
			"1 file: +0 -101 lines; removes or rewrites 101 of 1000 lines of n.md"},
		{"removes 100 lines of 1000", []FileDiff{{"n.md", "n.md", []byte(thousand), []byte(numbered(900))}}, Medium,
			"1 file: +0 -100 lines; removes or rewrites 100 of 1000 lines of n.md"},
		{"delete", []FileDiff{{"old.md", "", []byte("a\nb\n"), nil}}, High, "1 file: +0 -2 lines; deletes old.md"},
		{"delete an empty file", []FileDiff{{"old.md", "", nil, nil}}, High, "1 file: +0 -0 lines; deletes old.md"},
		{"rename", []FileDiff{{"a.md", "b.md", []byte(ten), []byte(ten)}}, Low, "1 file: +0 -0 lines; renames a.md to b.md"},
		{"rename and rewrite", []FileDiff{{"a.md", "b.md", []byte(ten), []byte(rewrite(ten, 1, 2, 3, 4, 5, 6))}}, High,
			"1 file: +6 -6 lines; renames a.md to b.md and removes or rewrites 6 of 10 lines of b.md"},
		{
			"riskiest named first",
			[]FileDiff{
				{"a.md", "a.md", []byte(twenty), []byte(twenty + "x\n")},
				{"", "c.md", nil, []byte("new\n")},
				{"b.md", "", []byte("gone\n"), nil},
				{"d.md", "d.md", []byte("same\n"), []byte("same\n")},
			},
			High, "3 files: +2 -1 lines; deletes b.md; creates c.md",
		},
		{
			"long lists are cut",
			[]FileDiff{
				{"", "1.md", nil, []byte("x\n")},
				{"", "2.md", nil, []byte("x\n")},
				{"", "3.md", nil, []byte("x\n")},
				{"", "4.md", nil, []byte("x\n")},
				{"5.md", "", []byte("x\n"), nil},
			},
			High, "5 files: +4 -1 lines; deletes 5.md; creates 1.md; creates 2.md; and 2 more",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			risk, summary := Assess(tt.files)
			if risk != tt.wantRisk || summary != tt.wantSummary {
				t.Errorf("Assess = %q, %q; want %q, %q", risk, summary, tt.wantRisk, tt.wantSummary)
			}
			if strings.Contains(summary, "\n") {
				t.Errorf("summary %q is more than one line", summary)
			}
		})
	}
}
