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

// dump renders everything the graph holds, in a canonical order, so that two
// graphs of the same files compare equal as strings.
func dump(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "commit %s\n", g.commit)
	for _, f := range slices.Sorted(maps.Keys(g.notes)) {
		n := g.notes[f]
		fmt.Fprintf(&b, "note %s %s %s %q %q %v\n", n.file, n.path, n.version, n.title, n.aliases, n.headings)
		for _, l := range n.links {
			to := ""
			if l.to != nil {
				to = l.to.file
			}
			fmt.Fprintf(&b, "  link %d %s %q %q mode=%d key=%q to=%s by=%d ok=%v file=%s others=%q at=%d\n",
				l.line, l.kind, l.target, l.heading(), l.mode, l.key(), to, l.by, l.ok, l.file, l.others(), l.at)
		}
		fmt.Fprintf(&b, "  out %s\n  in %s\n", counts(n.out), counts(n.in))
	}
	for _, f := range slices.Sorted(maps.Keys(g.files)) {
		fmt.Fprintf(&b, "file %s\n", f)
	}
	tables := []struct {
		name string
		t    map[string][]*node
	}{{"base", g.byBase}, {"title", g.byTitle}, {"alias", g.byAlias}}
	for _, tb := range tables {
		name, t := tb.name, tb.t
		for _, k := range slices.Sorted(maps.Keys(t)) {
			fmt.Fprintf(&b, "%s %q %v\n", name, k, files(t[k]))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(g.fileBase)) {
		fmt.Fprintf(&b, "filebase %q %v\n", k, slices.Sorted(slices.Values(g.fileBase[k])))
	}
	for _, k := range slices.Sorted(maps.Keys(g.byKey)) {
		fmt.Fprintf(&b, "key %q %v\n", k, files(g.byKey[k]))
	}
	return b.String()
}

// counts renders edges by file, and says when they are both a list and a
// map.
func counts(es edges) string {
	var out []string
	for n, c := range es.all() {
		out = append(out, fmt.Sprintf("%s:%d", n.file, c))
	}
	if es.m != nil && es.list != nil {
		out = append(out, "(list and map)")
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func files(ns []*node) []string {
	var out []string
	for _, n := range ns {
		out = append(out, n.file)
	}
	sort.Strings(out)
	return out
}

// randomWiki makes notes whose names, titles and aliases collide often, with
// links of every form between them.
type randomWiki struct {
	rng   *rand.Rand
	files map[string]string
}

var (
	rwFolders = []string{"", "a/", "a/b/", "c/"}
	rwNames   = []string{"x", "y", "plan", "Plan", "z"}
	rwTargets = []string{"x", "y", "plan", "PLAN", "a/x", "b/plan", "/a/x", "/plan", "./y", "../x", "X Title",
		"Alias", "plan.md", "missing", "img.png", "a/img.png", "c/img.png"}
	rwMarkdown = []string{"x.md", "../x.md", "b/plan.md", "./y.md", "../a/b/plan.md", "Plan.md", "my%20note.md"}
	rwHeadings = []string{"", "", "#H1", "#h1", "#Nope", "#^blk"}
)

func (r *randomWiki) pick(ss []string) string { return ss[r.rng.IntN(len(ss))] }

func (r *randomWiki) noteFile() string {
	ext := ".md"
	if r.rng.IntN(8) == 0 {
		ext = ".markdown"
	}
	name := r.pick(rwNames)
	if r.rng.IntN(10) == 0 {
		name = "my note"
	}
	return r.pick(rwFolders) + name + ext
}

func (r *randomWiki) content() string {
	var b strings.Builder
	switch r.rng.IntN(3) {
	case 0:
		fmt.Fprintf(&b, "---\ntitle: %s\naliases: [%s]\n---\n", r.pick([]string{"X Title", "Plan", "Y"}), r.pick([]string{"Alias", "x", "Other"}))
	case 1:
		b.WriteString("# X Title\n")
	}
	b.WriteString("\n## H1\n\nline ^blk\n\n")
	for range r.rng.IntN(6) {
		switch r.rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "see [l](%s%s) here\n", r.pick(rwMarkdown), r.pick(rwHeadings))
		case 1:
			fmt.Fprintf(&b, "![[%s%s]]\n", r.pick(rwTargets), r.pick(rwHeadings))
		default:
			fmt.Fprintf(&b, "a [[%s%s|label]] and [[%s]]\n", r.pick(rwTargets), r.pick(rwHeadings), r.pick(rwTargets))
		}
	}
	return b.String()
}

// step changes the wiki at random and returns the files written and
// deleted.
func (r *randomWiki) step() (written []string, deleted []string) {
	existing := slices.Sorted(maps.Keys(r.files))
	switch op := r.rng.IntN(10); {
	case op < 4 || len(existing) < 3: // write a note
		f := r.noteFile()
		r.files[f] = r.content()
		written = append(written, f)
	case op < 6: // delete
		f := r.pick(existing)
		delete(r.files, f)
		deleted = append(deleted, f)
	case op < 8: // move
		f := r.pick(existing)
		to := r.noteFile()
		if !note.IsMarkdown(f) {
			to = r.pick(rwFolders) + "img.png"
		}
		if _, ok := r.files[to]; ok || to == f {
			return nil, nil
		}
		r.files[to] = r.files[f]
		delete(r.files, f)
		written, deleted = append(written, to), append(deleted, f)
	default: // an attachment comes or goes
		f := r.pick(rwFolders) + "img.png"
		if _, ok := r.files[f]; ok {
			delete(r.files, f)
			deleted = append(deleted, f)
		} else {
			r.files[f] = "PNG"
			written = append(written, f)
		}
	}
	return written, deleted
}

func TestGraph_ApplyFilesEqualsRebuild(t *testing.T) {
	for _, res := range []wiki.LinkResolution{wiki.ResolveWiki, wiki.ResolveObsidian} {
		t.Run(string(res), func(t *testing.T) { applyEqualsRebuild(t, res) })
	}
}

// applyEqualsRebuild drives random changes through graphs resolving by res
// and checks that each patched graph equals one built from scratch: 200
// changes from each of 20 seeds, or of 4 with -short.
func applyEqualsRebuild(t *testing.T, res wiki.LinkResolution) {
	seeds := uint64(20)
	if testing.Short() {
		seeds = 4
	}
	for seed := range seeds {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			r := &randomWiki{rng: rand.New(rand.NewPCG(seed, 7)), files: make(map[string]string)}
			g := NewResolving(res)
			var written, deleted []string
			for i := range 200 {
				w, d := r.step()
				written, deleted = append(written, w...), append(deleted, d...)
				if r.rng.IntN(3) == 0 && i < 199 {
					continue // several changes in one commit
				}
				var gfs []File
				var gone []string
				for _, f := range slices.Compact(slices.Sorted(slices.Values(written))) {
					if c, ok := r.files[f]; ok {
						gfs = append(gfs, fileOf(f, []byte(c)))
					}
				}
				for _, f := range deleted {
					if _, ok := r.files[f]; !ok {
						gone = append(gone, f)
					}
				}
				written, deleted = nil, nil
				commit := fmt.Sprint("c", i)
				g.ApplyFiles(commit, gfs, gone)
				fresh := NewResolving(res)
				fresh.ApplyFiles(commit, wikiFiles(r.files), nil)
				if got, want := dump(g), dump(fresh); got != want {
					t.Fatalf("after step %d the patched graph differs from a rebuild:\n%s", i, diffLines(got, want))
				}
			}
		})
	}
}

// diffLines returns the lines only in a (-) or only in b (+).
func diffLines(a, b string) string {
	in := func(s string) map[string]bool {
		m := make(map[string]bool)
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !mb[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !ma[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
