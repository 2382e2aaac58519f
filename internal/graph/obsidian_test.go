package graph

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/wikid/wikid/internal/wiki"
)

// vault returns the graph of fixtures/obsidian resolving links by r.
func vault(tb testing.TB, r wiki.LinkResolution) *Graph {
	tb.Helper()
	g := NewResolving(r)
	g.ApplyFiles("c1", readDir(tb, fixtureDir(tb, "obsidian")), nil)
	return g
}

func brokenList(bs []wiki.BrokenLink) []string {
	out := []string{}
	for _, b := range bs {
		s := fmt.Sprintf("%s:%d %s", b.Path, b.Line, b.Target)
		if b.Heading != "" {
			s += "#" + b.Heading
		}
		out = append(out, s+" ("+b.Reason+")")
	}
	return out
}

func TestGraph_ObsidianResolution(t *testing.T) {
	home := map[wiki.LinkResolution][]string{
		wiki.ResolveObsidian: {
			"6 Plan -> Projects/Alpha/Plan",
			"7 Projects/Alpha/Plan -> Projects/Alpha/Plan",
			"8 Alpha/Plan#Milestones -> Projects/Alpha/Plan",
			"9 Plan#^goal-1 -> Projects/Alpha/Plan",
			"10 Plan#^no-such-block -> Projects/Alpha/Plan (no block ^no-such-block)",
			"11 Plan.md -> Projects/Alpha/Plan",
			"12 Alpha Plan -> (no such note)",
			"13 Roadmap -> (no such note)",
			"14 Ada Lovelace -> People/Ada Lovelace",
			"15 Ada -> (no such note)",
			"16 Meeting -> Projects/Beta/Meeting",
			"17 Beta/Meeting -> Projects/Beta/Meeting",
			"18 /Index -> Index",
			"19 diagram.png -> attachments/diagram.png",
			"20 Plan -> Projects/Alpha/Plan",
			"21 spec.pdf -> attachments/spec.pdf",
			"22 missing.png -> (no such file)",
			"23 Nowhere#Intro -> (no such note)",
			"24 Projects/Alpha/Plan.md -> Projects/Alpha/Plan",
			"25 attachments/diagram.png -> attachments/diagram.png",
		},
		// by title and alias; the nearest Meeting is the first by file
		wiki.ResolveWiki: {
			"6 Plan -> Projects/Alpha/Plan",
			"7 Projects/Alpha/Plan -> Projects/Alpha/Plan",
			"8 Alpha/Plan#Milestones -> Projects/Alpha/Plan",
			"9 Plan#^goal-1 -> Projects/Alpha/Plan",
			"10 Plan#^no-such-block -> Projects/Alpha/Plan (no block ^no-such-block)",
			"11 Plan.md -> Projects/Alpha/Plan",
			"12 Alpha Plan -> Projects/Alpha/Plan",
			"13 Roadmap -> Projects/Alpha/Plan",
			"14 Ada Lovelace -> People/Ada Lovelace",
			"15 Ada -> People/Ada Lovelace",
			"16 Meeting -> Projects/Alpha/Meeting",
			"17 Beta/Meeting -> Projects/Beta/Meeting",
			"18 /Index -> Index",
			"19 diagram.png -> attachments/diagram.png",
			"20 Plan -> Projects/Alpha/Plan",
			"21 spec.pdf -> attachments/spec.pdf",
			"22 missing.png -> (no such file)",
			"23 Nowhere#Intro -> (no such note)",
			"24 Projects/Alpha/Plan.md -> Projects/Alpha/Plan",
			"25 attachments/diagram.png -> attachments/diagram.png",
		},
	}
	// Obsidian shows as unresolved: the title, the two aliases, the missing
	// image and note; the missing block is a broken block reference
	broken := map[wiki.LinkResolution][]string{
		wiki.ResolveObsidian: {
			"Home:10 Plan#^no-such-block (no block ^no-such-block)",
			"Home:12 Alpha Plan (no such note)",
			"Home:13 Roadmap (no such note)",
			"Home:15 Ada (no such note)",
			"Home:22 missing.png (no such file)",
			"Home:23 Nowhere#Intro (no such note)",
		},
		wiki.ResolveWiki: {
			"Home:10 Plan#^no-such-block (no block ^no-such-block)",
			"Home:22 missing.png (no such file)",
			"Home:23 Nowhere#Intro (no such note)",
		},
	}
	for _, r := range []wiki.LinkResolution{wiki.ResolveObsidian, wiki.ResolveWiki} {
		t.Run(string(r), func(t *testing.T) {
			g := vault(t, r)
			if got := outs(g.Outlinks("Home")); !reflect.DeepEqual(got, home[r]) {
				t.Errorf("Outlinks(Home) =\n%q\nwant\n%q", got, home[r])
			}
			if got := brokenList(g.BrokenLinks("")); !reflect.DeepEqual(got, broken[r]) {
				t.Errorf("BrokenLinks =\n%q\nwant\n%q", got, broken[r])
			}
		})
	}
}

func TestGraph_ObsidianSameName(t *testing.T) {
	g := vault(t, wiki.ResolveObsidian)
	tests := []struct {
		path string
		want []string
	}{
		// the note in the linking note's folder wins, and ./ names it too
		{"Projects/Alpha/Plan", []string{
			"11 Meeting -> Projects/Alpha/Meeting",
			"12 ./Meeting -> Projects/Alpha/Meeting",
			"13 Ada Lovelace -> People/Ada Lovelace",
		}},
		{"Projects/Beta/Meeting", []string{
			"3 Meeting -> Projects/Beta/Meeting",
			"3 Alpha/Meeting -> Projects/Alpha/Meeting",
		}},
		// a note at the root with the name wins over one in the folder
		{"Archive/Old Notes", []string{"3 Index -> Index"}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if got := outs(g.Outlinks(tt.path)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Outlinks(%q) =\n%q\nwant\n%q", tt.path, got, tt.want)
			}
		})
	}
	var amb []string
	for _, a := range g.AmbiguousLinks("") {
		amb = append(amb, fmt.Sprintf("%s:%d %s -> %s %q", a.Path, a.Line, a.Target, a.To, a.Others))
	}
	want := []string{
		`Archive/Old Notes:3 Index -> Index ["Archive/Index"]`,
		`Home:16 Meeting -> Projects/Beta/Meeting ["Projects/Alpha/Meeting"]`,
		`Projects/Alpha/Plan:11 Meeting -> Projects/Alpha/Meeting ["Projects/Beta/Meeting"]`,
		`Projects/Beta/Meeting:3 Meeting -> Projects/Beta/Meeting ["Projects/Alpha/Meeting"]`,
	}
	if !reflect.DeepEqual(amb, want) {
		t.Errorf("AmbiguousLinks =\n%q\nwant\n%q", amb, want)
	}
	if bl := g.Backlinks("Projects/Alpha/Plan"); len(bl) != 3 {
		t.Errorf("Backlinks(Projects/Alpha/Plan) from %d notes, want 3 (Home, Alpha meeting, Ada)", len(bl))
	}
}

func TestGraph_ObsidianRelinks(t *testing.T) {
	files := map[string]string{
		"a/Plan.md":   "# Plan A\n",
		"b/Plan.md":   "# Plan B\n",
		"b/x.md":      "[[Plan]] is b/Plan, in this folder\n",
		"root.md":     "[[Plan]] is a/Plan, the first of two as short\n",
		"c/y.md":      "[[Plan|label]] and [[Plan#Plan A]] are a/Plan\n",
		"c/linker.md": "[[b/Plan]] names b/Plan by path\n",
	}
	moves := map[string]string{"b/Plan": "Plan"}
	g := NewResolving(wiki.ResolveObsidian)
	g.ApplyFiles("c1", wikiFiles(files), nil)
	rel := g.Relinks(moves)
	// at the root, b/Plan takes every bare [[Plan]]: the links that named
	// a/Plan must name it by path now
	want := []string{
		"c/linker:1 b/Plan -> Plan",
		"c/y:1 Plan -> a/Plan",
		"c/y:1 Plan -> a/Plan",
		"root:1 Plan -> a/Plan",
	}
	if got := edits(rel); !reflect.DeepEqual(got, want) {
		t.Errorf("Relinks =\n%q\nwant\n%q", got, want)
	}
	after := NewResolving(wiki.ResolveObsidian)
	after.ApplyFiles("c2", wikiFiles(applyRelinks(t, files, moves, rel)), nil)
	for p, to := range map[string]string{"b/x": "Plan", "root": "a/Plan", "c/y": "a/Plan", "c/linker": "Plan"} {
		for _, o := range after.Outlinks(p) {
			if o.Path != to || o.Broken != "" {
				t.Errorf("%s: [[%s]] resolves to %q (%s) after the move, want %s", p, o.Target, o.Path, o.Broken, to)
			}
		}
	}
}

// TestGraph_ObsidianMarkdownNoteByName: in the Obsidian resolution a
// markdown link whose path names no note takes the note whose path ends
// with it, as an API reference's [x](Vault/on('create').md) does; a path
// that names a note keeps it. A move to another folder keeps the link by
// name; a rename rewrites it to the relative path.
func TestGraph_ObsidianMarkdownNoteByName(t *testing.T) {
	files := map[string]string{
		"api/Vault/on('create').md": "[Vault](../Vault.md) › [on('create')](Vault/on('create').md)\n",
		"api/Vault.md":              "# Vault\n",
		"guide/read.md":             "[create](Vault/on('create').md) and [here](read.md) and [gone](nowhere.md)\n",
		"read.md":                   "# Read at the root\n",
	}
	g := NewResolving(wiki.ResolveObsidian)
	g.ApplyFiles("c1", wikiFiles(files), nil)
	for p, want := range map[string][]string{
		"api/Vault/on('create')": {"1 ../Vault.md -> api/Vault", "1 Vault/on('create').md -> api/Vault/on('create')"},
		"guide/read":             {"1 Vault/on('create').md -> api/Vault/on('create')", "1 read.md -> guide/read", "1 nowhere.md -> (no such note)"},
	} {
		if got := outs(g.Outlinks(p)); !reflect.DeepEqual(got, want) {
			t.Errorf("Outlinks(%s) =\n%q\nwant\n%q", p, got, want)
		}
	}
	if rel := g.Relinks(map[string]string{"api/Vault/on('create')": "reference/Vault/on('create')"}); !reflect.DeepEqual(edits(rel), []string{"api/Vault/on('create'):1 ../Vault.md -> ../../api/Vault.md"}) {
		// only the relative ../Vault.md of the moved note itself
		t.Errorf("a move to another folder: Relinks = %q, want the moved note's ../Vault.md only", edits(rel))
	}
	moves := map[string]string{"api/Vault/on('create')": "api/Vault/create"}
	rel := g.Relinks(moves)
	after := NewResolving(wiki.ResolveObsidian)
	after.ApplyFiles("c2", wikiFiles(applyRelinks(t, files, moves, rel)), nil)
	if got := outs(after.Outlinks("guide/read"))[0]; got != "1 ../api/Vault/create.md -> api/Vault/create" {
		t.Errorf("after a rename guide/read links %q", got)
	}
}
