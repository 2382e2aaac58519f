package gittest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// genVersion is part of the cache key: bump it when the generated content
// changes, so that stale caches are not reused.
const genVersion = 1

// Generate makes dir (empty or missing) a checkout of a generated wiki:
// notes markdown notes one to three folders deep, with frontmatter (title,
// tags, date), wikilinks and markdown links to other notes and a few
// paragraphs, written over commits commits on branch main: the notes are
// spread over the commits, and every commit also extends one or two earlier
// notes. The checkout has a clean worktree and an index whose entries are
// not racily clean, like a checkout that has been in use for a while.
//
// The history is built with git fast-import into a bare repository cached
// under os.TempDir() as wikid-gen-v<version>-<notes>-<commits>, then cloned
// with `git clone --local` (objects are hard-linked), so several tests and
// benchmarks share one generation. Delete those folders to regenerate. The
// content is deterministic: the same parameters give the same commit ids.
func Generate(tb testing.TB, dir string, notes, commits int) {
	tb.Helper()
	if notes < 1 || commits < 1 {
		tb.Fatalf("Generate: need at least one note and one commit, got %d and %d", notes, commits)
	}
	cache := filepath.Join(os.TempDir(), fmt.Sprintf("wikid-gen-v%d-%d-%d", genVersion, notes, commits))
	if _, err := os.Stat(filepath.Join(cache, "wikid-generated")); err != nil {
		buildCache(tb, cache, notes, commits)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	Git(tb, dir, "clone", "-q", "--local", cache, ".")
	settleIndex(tb, dir)
}

// buildCache generates the bare repository in a temporary folder next to
// cache and renames it into place; if another process got there first, its
// copy is used.
func buildCache(tb testing.TB, cache string, notes, commits int) {
	tb.Helper()
	tmp, err := os.MkdirTemp(filepath.Dir(cache), filepath.Base(cache)+"-tmp-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	Git(tb, tmp, "init", "-q", "--bare", "-b", "main")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = tmp
	cmd.Env = Env()
	cmd.Stdin = bytes.NewReader(fastImportStream(notes, commits))
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git fast-import: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "wikid-generated"), nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, cache); err != nil {
		if _, statErr := os.Stat(filepath.Join(cache, "wikid-generated")); statErr != nil {
			tb.Fatalf("Generate: cache %s: %v", cache, err)
		}
	}
}

// settleIndex waits until the second after the index was written and lets
// git status rewrite it, so that no entry is racily clean (which would make
// the next git command hash every file).
func settleIndex(tb testing.TB, dir string) {
	tb.Helper()
	fi, err := os.Stat(filepath.Join(dir, ".git", "index"))
	if err != nil {
		tb.Fatal(err)
	}
	if wait := time.Until(fi.ModTime().Truncate(time.Second).Add(time.Second + 10*time.Millisecond)); wait > 0 {
		time.Sleep(wait)
	}
	if st := Status(tb, dir); st != "" {
		tb.Fatalf("Generate: checkout not clean:\n%s", st)
	}
}

// generator holds the notes being generated.
type generator struct {
	rng     *rand.Rand
	paths   []string
	content []string
}

var (
	genTags  = []string{"idea", "project", "meeting", "reading", "howto", "draft", "reference", "person", "journal", "todo", "archive", "research"}
	genWords = strings.Fields("the a wiki note link graph search index commit branch tree blob history " +
		"plan idea draft review meeting summary detail reason result question answer follow up " +
		"design tradeoff budget latency memory cache lock ref worktree status change version " +
		"simple careful small large fast slow clear open closed first last next previous")
	genAreas = []string{"projects", "areas", "resources", "archive", "journal", "people", "reading", "howto"}
)

// fastImportStream returns the git fast-import commands for the history.
func fastImportStream(notes, commits int) []byte {
	g := &generator{rng: rand.New(rand.NewPCG(uint64(notes), uint64(commits)))}
	for i := range notes {
		g.paths = append(g.paths, g.notePath(i))
	}
	var b bytes.Buffer
	start := time.Date(2023, 1, 2, 9, 0, 0, 0, time.UTC).Unix()
	added := 0
	for c := range commits {
		upto := max((c+1)*notes/commits, 1)
		var files []int
		var subject string
		if upto > added {
			for i := added; i < upto; i++ {
				g.content = append(g.content, g.newNote(i))
				files = append(files, i)
			}
			subject = fmt.Sprintf("add %d notes", upto-added)
			added = upto
		}
		for range 1 + g.rng.IntN(2) { // and edit one or two earlier notes
			if added == 0 {
				break
			}
			i := g.rng.IntN(added)
			g.content[i] += "\n" + g.paragraph() + "\n"
			files = append(files, i)
		}
		if subject == "" {
			subject = "edit " + g.paths[files[0]]
		}
		fmt.Fprintf(&b, "commit refs/heads/main\nmark :%d\n", c+1)
		fmt.Fprintf(&b, "author Wiki Writer <writer@example.com> %d +0100\n", start+int64(c)*3600)
		fmt.Fprintf(&b, "committer wikid <wikid@example.com> %d +0100\n", start+int64(c)*3600)
		fmt.Fprintf(&b, "data %d\n%s\n", len(subject), subject)
		if c > 0 {
			fmt.Fprintf(&b, "from :%d\n", c)
		}
		for _, i := range files {
			fmt.Fprintf(&b, "M 100644 inline %s\ndata %d\n%s\n", g.paths[i], len(g.content[i]), g.content[i])
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// notePath returns a path one to three folders deep.
func (g *generator) notePath(i int) string {
	parts := []string{genAreas[g.rng.IntN(len(genAreas))]}
	for range g.rng.IntN(3) {
		parts = append(parts, fmt.Sprintf("%s-%02d", genWords[g.rng.IntN(len(genWords))], g.rng.IntN(20)))
	}
	return strings.Join(parts, "/") + fmt.Sprintf("/note-%05d.md", i)
}

// newNote returns note i: frontmatter, a title, paragraphs with links to
// earlier notes.
func (g *generator) newNote(i int) string {
	var b strings.Builder
	tags := []string{genTags[g.rng.IntN(len(genTags))], genTags[g.rng.IntN(len(genTags))]}
	fmt.Fprintf(&b, "---\ntitle: Note %d\ntags: [%s, %s]\ncreated: 2023-%02d-%02d\n---\n\n",
		i, tags[0], tags[1], 1+i%12, 1+i%28)
	fmt.Fprintf(&b, "# Note %d\n\n", i)
	for range 2 + g.rng.IntN(3) {
		b.WriteString(g.paragraph())
		if i > 0 {
			j := g.rng.IntN(i)
			if g.rng.IntN(2) == 0 {
				fmt.Fprintf(&b, " See [[Note %d]].", j)
			} else {
				fmt.Fprintf(&b, " See [note %d](/%s).", j, g.paths[j])
			}
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// paragraph returns a sentence or three of filler.
func (g *generator) paragraph() string {
	n := 12 + g.rng.IntN(40)
	words := make([]string, n)
	for k := range words {
		words[k] = genWords[g.rng.IntN(len(genWords))]
	}
	words[0] = strings.ToUpper(words[0][:1]) + words[0][1:]
	return strings.Join(words, " ") + "."
}
