package note

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

const (
	fixtureDir = "../../fixtures/basic"
	goldenDir  = "testdata/golden"
)

// fixture is one markdown note of the fixture wiki.
type fixture struct {
	File     string // path relative to the wiki root, with extension
	NotePath string
	Src      []byte
}

// loadFixtures reads every markdown note of the basic fixture wiki, skipping
// folders whose name starts with a dot (.obsidian). It fails when a markdown
// file is not a valid note path, so the fixtures keep to the path rules.
func loadFixtures(tb testing.TB) []fixture {
	tb.Helper()
	var fixtures []fixture
	err := filepath.WalkDir(fixtureDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != fixtureDir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !IsMarkdown(d.Name()) {
			return nil
		}
		rel, err := filepath.Rel(fixtureDir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		notePath, _, ok := SplitFileName(rel)
		if !ok {
			tb.Errorf("fixture %q is not a valid note file name", rel)
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fixtures = append(fixtures, fixture{File: rel, NotePath: notePath, Src: src})
		return nil
	})
	if err != nil {
		tb.Fatalf("walk %s: %v", fixtureDir, err)
	}
	if len(fixtures) == 0 {
		tb.Fatalf("no markdown notes under %s", fixtureDir)
	}
	return fixtures
}

// goldenNote is the rendering of a parsed Note compared with the golden
// files. The error is rendered as its string, and each link and heading
// carries the source text it covers so that a reviewer can check the
// offsets by reading the file.
type goldenNote struct {
	Path             string         `json:"path"`
	Title            string         `json:"title"`
	TitleSource      TitleSource    `json:"title_source"`
	BodyStart        int            `json:"body_start"`
	BodyLine         int            `json:"body_line"`
	FrontmatterError string         `json:"frontmatter_error,omitempty"`
	FrontmatterKeys  []string       `json:"frontmatter_keys,omitempty"`
	Aliases          []string       `json:"aliases"`
	Tags             []goldenTag    `json:"tags"`
	Properties       map[string]any `json:"properties,omitempty"`
	Created          time.Time      `json:"created,omitzero"`
	Modified         time.Time      `json:"modified,omitzero"`
	Headings         []goldenHead   `json:"headings"`
	Links            []goldenLink   `json:"links"`
}

// goldenTag, goldenHead and goldenLink name the fields of the note model
// as the golden files spell them: the model itself has no JSON form.
type goldenTag struct {
	Name string `json:"name"`
	Norm string `json:"norm"`
}

type goldenHead struct {
	Level        int    `json:"level"`
	Text         string `json:"text"`
	Line         int    `json:"line"`
	Start        int    `json:"start"`
	ContentStart int    `json:"content_start"`
	End          int    `json:"end"`
	Parent       int    `json:"parent"`
	Source       string `json:"source"` // Raw[Start:ContentStart]
}

type goldenLink struct {
	Kind         LinkKind `json:"kind"`
	Target       string   `json:"target"`
	Embed        bool     `json:"embed,omitempty"`
	Heading      string   `json:"heading,omitempty"`
	Label        string   `json:"label,omitempty"`
	Line         int      `json:"line"`
	Start        int      `json:"start"`
	End          int      `json:"end"`
	TargetStart  int      `json:"target_start"`
	TargetEnd    int      `json:"target_end"`
	Source       string   `json:"source"`        // Raw[Start:End]
	TargetSource string   `json:"target_source"` // Raw[TargetStart:TargetEnd]
}

func renderGolden(tb testing.TB, n *Note) []byte {
	tb.Helper()
	g := goldenNote{
		Path:        n.Path,
		Title:       n.Title,
		TitleSource: n.TitleSource,
		BodyStart:   n.BodyStart,
		BodyLine:    n.BodyLine,
		Aliases:     n.Aliases,
		Tags:        []goldenTag{},
		Properties:  n.Properties,
		Created:     n.Created,
		Modified:    n.Modified,
		Headings:    []goldenHead{},
		Links:       []goldenLink{},
	}
	if n.FrontmatterErr != nil {
		g.FrontmatterError = n.FrontmatterErr.Error()
	}
	if n.Frontmatter != nil {
		g.FrontmatterKeys = n.Frontmatter.Keys
	}
	if n.Tags == nil {
		g.Tags = nil
	}
	for _, t := range n.Tags {
		g.Tags = append(g.Tags, goldenTag(t))
	}
	for _, h := range n.Headings {
		g.Headings = append(g.Headings, goldenHead{Level: h.Level, Text: h.Text, Line: h.Line, Start: h.Start,
			ContentStart: h.ContentStart, End: h.End, Parent: h.Parent, Source: slice(n.Raw, h.Start, h.ContentStart)})
	}
	for _, l := range n.Links {
		g.Links = append(g.Links, goldenLink{
			Kind: l.Kind, Target: l.Target, Embed: l.Embed, Heading: l.Heading, Label: l.Label, Line: l.Line,
			Start: l.Start, End: l.End, TargetStart: l.TargetStart, TargetEnd: l.TargetEnd,
			Source:       slice(n.Raw, l.Start, l.End),
			TargetSource: slice(n.Raw, l.TargetStart, l.TargetEnd),
		})
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g); err != nil {
		tb.Fatalf("render %s: %v", n.Path, err)
	}
	return buf.Bytes()
}

// slice returns src[start:end], or a marker when the range is out of bounds,
// so that a bad offset shows up in the golden file instead of a panic.
func slice(src []byte, start, end int) string {
	if start < 0 || end > len(src) || start > end {
		return "<bad range>"
	}
	return string(src[start:end])
}

func TestParse_Golden(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range loadFixtures(t) {
		golden := filepath.Join(goldenDir, filepath.FromSlash(f.File)+".json")
		seen[golden] = true
		t.Run(f.File, func(t *testing.T) {
			got := renderGolden(t, Parse(f.NotePath, f.Src))
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden file: %v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Parse(%q) differs from %s (run go test -update to accept):\n%s",
					f.NotePath, golden, lineDiff(string(want), string(got)))
			}
		})
	}

	// A golden file without a fixture is stale: -update removes it.
	err := filepath.WalkDir(goldenDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || seen[p] {
			return err
		}
		if *update {
			return os.Remove(p)
		}
		t.Errorf("golden file %s has no fixture (run go test -update to remove it)", p)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}

// TestParse_FixtureOffsets checks, on every fixture note, that the offsets
// and line numbers of headings and links agree with each other and with the
// source, which the golden files show but do not check.
func TestParse_FixtureOffsets(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.File, func(t *testing.T) {
			n := Parse(f.NotePath, f.Src)
			lineAt := func(off int) int { return 1 + bytes.Count(f.Src[:off], []byte("\n")) }
			if n.BodyStart < 0 || n.BodyStart > len(f.Src) || lineAt(n.BodyStart) != n.BodyLine {
				t.Errorf("body starts at %d on line %d; want that offset on that line", n.BodyStart, n.BodyLine)
			}
			for i, h := range n.Headings {
				if !(n.BodyStart <= h.Start && h.Start < h.ContentStart && h.ContentStart <= h.End && h.End <= len(f.Src)) {
					t.Errorf("heading %d %q: range %d, %d, %d out of order", i, h.Text, h.Start, h.ContentStart, h.End)
					continue
				}
				if got := lineAt(h.Start); got != h.Line {
					t.Errorf("heading %q: starts on line %d, says line %d", h.Text, got, h.Line)
				}
				if h.Parent >= i || (h.Parent >= 0 && n.Headings[h.Parent].Level >= h.Level) {
					t.Errorf("heading %q (level %d): bad parent %d", h.Text, h.Level, h.Parent)
				}
			}
			for _, l := range n.Links {
				src := slice(f.Src, l.Start, l.End)
				if !(n.BodyStart <= l.Start && l.Start <= l.TargetStart && l.TargetStart <= l.TargetEnd && l.TargetEnd <= l.End && l.End <= len(f.Src)) {
					t.Errorf("link %s: range %d, %d, %d, %d out of order", src, l.Start, l.TargetStart, l.TargetEnd, l.End)
					continue
				}
				if got := lineAt(l.Start); got != l.Line {
					t.Errorf("link %s: starts on line %d, says line %d", src, got, l.Line)
				}
				if l.Kind != LinkMarkdown && string(f.Src[l.TargetStart:l.TargetEnd]) != l.Target {
					t.Errorf("link %s: target range holds %q, target is %q", src, f.Src[l.TargetStart:l.TargetEnd], l.Target)
				}
			}
		})
	}
}

// lineDiff shows where want and got first differ, with a few lines of each
// from there; git diff after -update shows the whole change.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-2, 0)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d\n--- want\n", i+1)
	b.WriteString(strings.Join(w[from:min(i+5, len(w))], "\n"))
	b.WriteString("\n+++ got\n")
	b.WriteString(strings.Join(g[from:min(i+5, len(g))], "\n"))
	return b.String()
}
