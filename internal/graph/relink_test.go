package graph

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// wikiFiles returns the graph files of a wiki given as file → content.
func wikiFiles(files map[string]string) []File {
	var out []File
	for _, f := range slices.Sorted(maps.Keys(files)) {
		out = append(out, fileOf(f, []byte(files[f])))
	}
	return out
}

// applyRelinks returns the wiki after the moves, with every proposed text
// written over the old one.
func applyRelinks(tb testing.TB, files map[string]string, moves map[string]string, rel []wiki.Relink) map[string]string {
	tb.Helper()
	edits := make(map[string][]wiki.LinkEdit)
	for _, r := range rel {
		edits[r.File] = r.Links
	}
	out := make(map[string]string)
	for f, content := range files {
		es := slices.Clone(edits[f])
		sort.Slice(es, func(i, j int) bool { return es[i].Start > es[j].Start })
		for _, e := range es {
			if e.New == "" {
				continue
			}
			if content[e.Start:e.End] != e.Old {
				tb.Fatalf("%s: edit of %q at %d finds %q", f, e.Old, e.Start, content[e.Start:e.End])
			}
			content = content[:e.Start] + e.New + content[e.End:]
		}
		p, ext, ok := note.SplitFileName(f)
		if to, moved := moves[p]; ok && moved {
			if to == "" {
				continue
			}
			f = to + ext
		}
		out[f] = content
	}
	return out
}

// checkMoved checks that every link that resolved before the moves
// resolves to the same note, at its new path, after them.
func checkMoved(tb testing.TB, before *Graph, after map[string]string, moves map[string]string) {
	tb.Helper()
	g := build(tb, wikiFiles(after))
	newPath := func(p string) string {
		if to, ok := moves[p]; ok {
			return to
		}
		return p
	}
	for _, n := range before.sortedUnder("") {
		np := newPath(n.path)
		if np == "" {
			continue
		}
		outs := g.Outlinks(np)
		if len(outs) != len(n.links) {
			tb.Errorf("%s has %d links after the move, %d before", np, len(outs), len(n.links))
			continue
		}
		for i, l := range n.links {
			if l.to == nil || l.mode == modeFile || l.mode == modeFilePath {
				continue
			}
			if want := newPath(l.to.path); want != "" && outs[i].Path != want {
				tb.Errorf("%s line %d: [[%s]] resolves to %q after the move, want %q", np, l.line, outs[i].Target, outs[i].Path, want)
			}
		}
	}
}

// edits renders relinks as "file:line old -> new".
func edits(rel []wiki.Relink) []string {
	var out []string
	for _, r := range rel {
		for _, l := range r.Links {
			out = append(out, fmt.Sprintf("%s:%d %s -> %s", r.Path, l.Line, l.Old, l.New))
		}
	}
	return out
}

func TestGraph_Relinks(t *testing.T) {
	base := map[string]string{
		"notes/plan.md": "---\ntitle: The Plan\naliases: [Blueprint]\n---\n# Plan\n\n## Goals\n\nSee [[x]] and [x](x.md) and [[notes/x]].\n",
		"notes/x.md": "# X\n\n[[plan]] [[plan|the plan]] [[plan#Goals]] ![[plan]] [[notes/plan]] [[/notes/plan]]\n" +
			"[p](plan.md) [p](./plan.md#goals) [[plan.md]] [[The Plan]] [[Blueprint]] [[./plan]]\n",
		"other/y.md":   "[p](../notes/plan.md) and [p](<../notes/plan.md>) and [[notes/plan|P]] and [[plan]]\n",
		"deep/plan.md": "# Deep plan\n",
		"z.md":         "nothing here links, [[x]] resolves to notes/x\n",
	}
	tests := []struct {
		name  string
		moves map[string]string
		want  []string
	}{
		{"rename in the folder", map[string]string{"notes/plan": "notes/roadmap"}, []string{
			"notes/x:3 plan -> roadmap",
			"notes/x:3 plan -> roadmap",
			"notes/x:3 plan -> roadmap",
			"notes/x:3 plan -> roadmap",
			"notes/x:3 notes/plan -> notes/roadmap",
			"notes/x:3 /notes/plan -> /notes/roadmap",
			"notes/x:4 plan.md -> roadmap.md",
			"notes/x:4 ./plan.md -> ./roadmap.md",
			"notes/x:4 plan.md -> roadmap.md",
			"notes/x:4 ./plan -> ./roadmap",
			"other/y:1 ../notes/plan.md -> ../notes/roadmap.md",
			"other/y:1 ../notes/plan.md -> ../notes/roadmap.md",
			"other/y:1 notes/plan -> notes/roadmap",
			// [[plan]] in other/y went to deep/plan, the nearest by depth
			// and file name, and still does.
		}},
		{"move to another folder", map[string]string{"notes/plan": "archive/plan"}, []string{
			// the moved note's relative links follow it; its [[x]] still
			// finds notes/x
			"notes/plan:9 x.md -> ../notes/x.md",
			// bare [[plan]] from notes/ finds archive/plan before deep/plan
			// (same depth, file name first): it stays
			"notes/x:3 notes/plan -> archive/plan",
			"notes/x:3 /notes/plan -> /archive/plan",
			"notes/x:4 plan.md -> ../archive/plan.md",
			"notes/x:4 ./plan.md -> ../archive/plan.md",
			"notes/x:4 ./plan -> ../archive/plan",
			"other/y:1 ../notes/plan.md -> ../archive/plan.md",
			"other/y:1 ../notes/plan.md -> ../archive/plan.md",
			"other/y:1 notes/plan -> archive/plan",
			// and other/y's bare [[plan]], which meant deep/plan, would now
			// find archive/plan: it names deep/plan by a longer ending
			"other/y:1 plan -> deep/plan",
		}},
		{"a note moves in next to a bare name", map[string]string{"deep/plan": "other/plan"}, []string{
			// other/y's [[plan]] meant deep/plan, which is now other/plan;
			// notes/x's [[plan]] still finds notes/plan, the nearest.
		}},
		{"a moved note takes a name over", map[string]string{"z": "notes/z", "deep/plan": "notes/sub/plan"}, []string{
			// other/y's [[plan]] meant deep/plan, but notes/plan is now
			// nearer than notes/sub/plan; notes/x keeps notes/plan.
			"other/y:1 plan -> sub/plan",
		}},
		{"a moved note comes between", map[string]string{"deep/plan": "other/plan"}, []string{}},
		{"delete", map[string]string{"notes/plan": ""}, []string{
			"notes/x:3 plan -> ", "notes/x:3 plan -> ", "notes/x:3 plan -> ", "notes/x:3 plan -> ",
			"notes/x:3 notes/plan -> ", "notes/x:3 /notes/plan -> ",
			"notes/x:4 plan.md -> ", "notes/x:4 ./plan.md -> ", "notes/x:4 plan.md -> ",
			"notes/x:4 The Plan -> ", "notes/x:4 Blueprint -> ", "notes/x:4 ./plan -> ",
			"other/y:1 ../notes/plan.md -> ", "other/y:1 ../notes/plan.md -> ", "other/y:1 notes/plan -> ",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, wikiFiles(base))
			rel := g.Relinks(tt.moves)
			if got := edits(rel); !slices.Equal(got, tt.want) {
				t.Errorf("Relinks =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			after := applyRelinks(t, base, tt.moves, rel)
			checkMoved(t, g, after, tt.moves)
		})
	}
}

func TestGraph_RelinksNow(t *testing.T) {
	files := map[string]string{
		"a/plan.md": "# A plan\n",
		"b/plan.md": "# B plan\n",
		"a/x.md":    "[[plan]] and [[b/plan]]\n",
	}
	g := build(t, wikiFiles(files))
	rel := g.Relinks(map[string]string{"a/plan": ""})
	if len(rel) != 1 || len(rel[0].Links) != 1 {
		t.Fatalf("Relinks = %+v, want the one link to a/plan", rel)
	}
	// deleting a/plan leaves [[plan]] resolving to b/plan, not broken
	if l := rel[0].Links[0]; l.Old != "plan" || l.To != "" || l.Now != "b/plan" || l.New != "" {
		t.Errorf("edit = %+v", l)
	}
	rel = g.Relinks(map[string]string{"b/plan": "a/sub/plan"})
	// [[b/plan]] is the whole path: it stays the whole path; [[plan]]
	// still finds a/plan first.
	if got := edits(rel); !slices.Equal(got, []string{"a/x:1 b/plan -> a/sub/plan"}) {
		t.Errorf("Relinks = %q", got)
	}
}

func TestEscapeDest(t *testing.T) {
	tests := []struct {
		path           string
		encoded, angle bool
		want           string
	}{
		{"../a b/c.md", false, false, "../a%20b/c.md"},
		{"../a b/c.md", false, true, "../a b/c.md"},
		{"../a b/café.md", true, false, "../a%20b/caf%C3%A9.md"},
		{"x (1)#?%.md", false, false, "x%20%281%29%23%3F%25.md"},
		{"<x>.md", false, true, "%3Cx%3E.md"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := escapeDest(tt.path, tt.encoded, tt.angle)
			if got != tt.want {
				t.Errorf("escapeDest(%q) = %q, want %q", tt.path, got, tt.want)
			}
			src := "[l](" + got + ")"
			if tt.angle {
				src = "[l](<" + got + ">)"
			}
			n := note.Parse("n", []byte(src))
			if len(n.Links) != 1 || n.Links[0].Target != tt.path {
				t.Errorf("%s parses to %+v, want target %q", src, n.Links, tt.path)
			}
		})
	}
}

func TestRelPath(t *testing.T) {
	tests := []struct{ dir, path, want string }{
		{"", "a/b.md", "a/b.md"},
		{"a", "a/b.md", "b.md"},
		{"a/b", "a/c/d.md", "../c/d.md"},
		{"a/b", "x.md", "../../x.md"},
		{"a", "a.md", "../a.md"},
	}
	for _, tt := range tests {
		if got := relPath(tt.dir, tt.path); got != tt.want {
			t.Errorf("relPath(%q, %q) = %q, want %q", tt.dir, tt.path, got, tt.want)
		}
	}
}

func TestGraph_RelinksPartialPath(t *testing.T) {
	files := map[string]string{
		"p/q/plan.md": "no title of its own\n",
		"x.md":        "[[q/plan]] [[p/q/plan]] [[plan]]\n",
	}
	g := build(t, wikiFiles(files))
	got := edits(g.Relinks(map[string]string{"p/q/plan": "r/s/t/roadmap"}))
	want := []string{"x:1 q/plan -> t/roadmap", "x:1 p/q/plan -> r/s/t/roadmap", "x:1 plan -> roadmap"}
	if !slices.Equal(got, want) {
		t.Errorf("Relinks = %q, want %q", got, want)
	}
}

func TestGraph_RelinksRandom(t *testing.T) {
	for seed := range uint64(150) {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := &randomWiki{rng: rand.New(rand.NewPCG(seed, 11)), files: make(map[string]string)}
			for range 30 {
				r.step()
			}
			g := build(t, wikiFiles(r.files))
			notes := g.sortedUnder("")
			paths := make(map[string]bool)
			for _, n := range notes {
				if paths[n.path] {
					t.Skipf("two files of note %s", n.path)
				}
				paths[n.path] = true
			}
			moves := make(map[string]string)
			if r.rng.IntN(2) == 0 { // a folder
				from, to := r.pick([]string{"a", "a/b", "c"}), r.pick([]string{"d", "a/e", "c/f"})
				for _, n := range notes {
					if under(n.path, from) {
						moves[n.path] = to + strings.TrimPrefix(n.path, from)
					}
				}
			} else {
				for range 1 + r.rng.IntN(3) {
					n := notes[r.rng.IntN(len(notes))]
					moves[n.path] = r.pick([]string{"d/", "a/", ""}) + r.pick([]string{"x", "plan", "q", "w"}) + fmt.Sprint(r.rng.IntN(3))
				}
			}
			// the wiki refuses a move onto a note that stays
			dest := make(map[string]bool)
			for from, to := range moves {
				if _, moving := moves[to]; (paths[to] && !moving) || dest[to] || from == to {
					t.Skipf("move onto %s", to)
				}
				dest[to] = true
			}
			rel := g.Relinks(moves)
			for _, rl := range rel {
				for _, l := range rl.Links {
					if l.To != "" && l.New == "" {
						t.Errorf("%s line %d: no text for %q -> %s", rl.Path, l.Line, l.Old, l.To)
					}
				}
			}
			checkMoved(t, g, applyRelinks(t, r.files, moves, rel), moves)
			if t.Failed() {
				t.Logf("moves %v", moves)
			}
		})
	}
}
