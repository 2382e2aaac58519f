package index

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// vaultEnv names a checkout of a real multilingual vault, such as the
// Obsidian help vault (github.com/obsidianmd/obsidian-help), whose top
// folders are named by language ("en", "de", "pt-br"...).
const vaultEnv = "WIKID_FORMS_VAULT"

// wordFamilies are the words TestForms_vault searches for, each with the
// forms of it that a search for it should find.
var wordFamilies = []struct {
	lang  string
	forms []string // the word searched for first
}{
	{"en", strings.Fields("plugin plugins")},
	{"en", strings.Fields("sync syncs synced syncing")},
	{"en", strings.Fields("link links linked linking")},
	{"en", strings.Fields("embed embeds embedded embedding")},
	{"en", strings.Fields("tag tags tagged tagging")},
	{"en", strings.Fields("note notes")},
	{"en", strings.Fields("file files")},
	{"en", strings.Fields("folder folders")},
	{"en", strings.Fields("search searches searched searching")},
	{"en", strings.Fields("open opens opened opening")},
	{"en", strings.Fields("create creates created creating")},
	{"en", strings.Fields("property properties")},
	{"en", strings.Fields("command commands")},
	{"en", strings.Fields("edit edits edited editing")},
	{"en", strings.Fields("publish publishes published publishing")},
	{"en", strings.Fields("template templates")},
	{"de", strings.Fields("notiz notizen")},
	{"de", strings.Fields("datei dateien")},
	{"de", strings.Fields("einstellung einstellungen")},
	{"fr", strings.Fields("fichier fichiers")},
	{"fr", strings.Fields("lien liens")},
	{"es", strings.Fields("nota notas")},
	{"es", strings.Fields("carpeta carpetas")},
	{"it", strings.Fields("cartella cartelle")},
	{"pt", strings.Fields("arquivo arquivos")},
	{"ru", strings.Fields("заметка заметки заметку заметок заметкой заметке заметках заметкам заметками")},
}

// TestForms_vault measures, on the vault named by WIKID_FORMS_VAULT, how
// well notes are told their language, and how many of the notes that hold
// a form of a word a search for the word finds: before (the word quoted,
// which matches as every word did before stemming, over the same fields)
// and after, against the notes that `git grep -i -l -w -E` finds in their
// files, and against those whose title, aliases or body hold a form (what
// a search reads: git grep also reads the frontmatter). It checks that a
// quoted word and CJK words match as written. Run it with -v for the
// tables:
//
//	git clone https://github.com/obsidianmd/obsidian-help /tmp/vault
//	WIKID_FORMS_VAULT=/tmp/vault go test -run TestForms_vault -v ./internal/index
func TestForms_vault(t *testing.T) {
	dir := os.Getenv(vaultEnv)
	if dir == "" {
		t.Skipf("set %s to a checkout of a multilingual vault", vaultEnv)
	}
	docs := readVault(t, dir)
	searched := map[string]string{} // the text a word search reads
	for _, d := range docs {
		searched[d.Path] = d.Title + "\n" + strings.Join(d.Aliases, "\n") + "\n" + d.Body
	}
	t.Logf("%d notes in %s", len(docs), dir)

	t0 := time.Now()
	langs := make([]string, len(docs))
	for i := range docs {
		langs[i] = noteLanguage(&docs[i])
	}
	detect := time.Since(t0)
	logDetection(t, docs, langs)

	x, _ := openTest(t)
	t0 = time.Now()
	for i := 0; i < len(docs); i += 500 {
		apply(t, x, fmt.Sprintf("c%d", i), docs[i:min(i+500, len(docs))], nil)
	}
	build := time.Since(t0)
	t.Logf("detection %v for %d notes (%.1f µs a note); index build %v; stem languages %v",
		detect.Round(time.Millisecond), len(docs), float64(detect.Microseconds())/float64(len(docs)),
		build.Round(time.Millisecond), x.langs.get())

	ctx := context.Background()
	matching := func(q string) map[string]bool {
		paths, err := x.Matching(ctx, wiki.SearchRequest{Query: parse(t, q)})
		if err != nil {
			t.Fatal(err)
		}
		return setOf(paths)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| lang | word (forms) | git grep | before | after | in searched text | before | after | after, not in git grep | top 10 say the word |\n|---|---|---|---|---|---|---|---|---|---|\n")
	var sumGrep, sumBefore, sumAfter, sumText, sumTextBefore, sumTextAfter int
	var before, after []time.Duration
	for _, fam := range wordFamilies {
		word := fam.forms[0]
		grep := gitGrep(t, dir, fam.forms)
		exact := wordNotes(searched, []string{word})
		was, now := matching(fmt.Sprintf("%q", word)), matching(word)
		top := find(t, x, wiki.SearchRequest{Query: parse(t, word), Limit: 10})
		exactTop := 0
		for _, h := range top.Results {
			if exact[h.Path] {
				exactTop++
			}
		}
		text := wordNotes(searched, fam.forms)
		fmt.Fprintf(&b, "| %s | %s (%s) | %d | %d (%.0f%%) | %d (%.0f%%) | %d | %d (%.0f%%) | %d (%.0f%%) | %d | %d |\n",
			fam.lang, word, strings.Join(fam.forms[1:], ", "), len(grep),
			overlap(was, grep), pct(overlap(was, grep), len(grep)),
			overlap(now, grep), pct(overlap(now, grep), len(grep)),
			len(text), overlap(was, text), pct(overlap(was, text), len(text)),
			overlap(now, text), pct(overlap(now, text), len(text)),
			len(now)-overlap(now, grep), exactTop)
		sumGrep += len(grep)
		sumBefore += overlap(was, grep)
		sumAfter += overlap(now, grep)
		sumText += len(text)
		sumTextBefore += overlap(was, text)
		sumTextAfter += overlap(now, text)
		before = append(before, latency(t, x, fmt.Sprintf("%q", word)))
		after = append(after, latency(t, x, word))
	}
	fmt.Fprintf(&b, "| all | | %d | %d (%.0f%%) | %d (%.0f%%) | %d | %d (%.0f%%) | %d (%.0f%%) | | |\n", sumGrep,
		sumBefore, pct(sumBefore, sumGrep), sumAfter, pct(sumAfter, sumGrep),
		sumText, sumTextBefore, pct(sumTextBefore, sumText), sumTextAfter, pct(sumTextAfter, sumText))
	t.Log(b.String())
	t.Logf("search latency (limit 10, 1 snippet), median of the words' medians: before %v, after %v",
		median(before), median(after))

	// A quoted word matches as written: "plugins" finds the notes whose
	// title, aliases or body hold that word, and no other.
	quoted := matching(`"plugins"`)
	holds := wordNotes(searched, []string{"plugins"})
	t.Logf(`"plugins" finds %d notes, %d hold the word; plugins finds %d`,
		len(quoted), overlap(quoted, holds), len(matching("plugins")))
	if len(quoted) != len(holds) || overlap(quoted, holds) != len(holds) {
		t.Errorf(`"plugins" finds %d notes, %d hold the word, of %d that do`, len(quoted), overlap(quoted, holds), len(holds))
	}
	// CJK words match as written, quoted or not.
	for _, w := range strings.Fields("ノート 笔记 筆記 노트 プラグイン 插件") {
		if a, b := matching(w), matching(fmt.Sprintf("%q", w)); len(a) != len(b) || overlap(a, b) != len(a) {
			t.Errorf("%s finds %d notes, quoted %d", w, len(a), len(b))
		}
	}
}

// readVault returns the notes of the markdown files under dir, as the wiki
// would index them.
func readVault(tb testing.TB, dir string) []wiki.Document {
	tb.Helper()
	var docs []wiki.Document
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != dir {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		notePath := strings.TrimSuffix(filepath.ToSlash(rel), ".md")
		n := note.Parse(notePath, src)
		d2 := wiki.Document{
			Path: notePath, File: filepath.ToSlash(rel), Title: n.Title, Aliases: n.Aliases,
			Frontmatter: string(src[:n.BodyStart]), Body: string(src[n.BodyStart:]), BodyLine: n.BodyLine,
			Properties: map[string][]string{},
		}
		for k, v := range n.Properties {
			if s, ok := v.(string); ok {
				d2.Properties[strings.ToLower(k)] = []string{s}
			}
		}
		docs = append(docs, d2)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return docs
}

// logDetection logs, for each top folder of the vault, the languages its
// notes were told to be in.
func logDetection(t *testing.T, docs []wiki.Document, langs []string) {
	byFolder := map[string]map[string]int{}
	for i, d := range docs {
		top, _, _ := strings.Cut(d.Path, "/")
		if byFolder[top] == nil {
			byFolder[top] = map[string]int{}
		}
		l := langs[i]
		if l == "" {
			l = "none"
		}
		byFolder[top][l]++
	}
	var b strings.Builder
	b.WriteString("\n| folder | notes | languages told |\n|---|---|---|\n")
	for _, top := range slices.Sorted(maps.Keys(byFolder)) {
		counts := byFolder[top]
		n := 0
		for _, c := range counts {
			n += c
		}
		if n < 10 {
			continue
		}
		ls := slices.Collect(maps.Keys(counts))
		slices.SortFunc(ls, func(a, b string) int { return cmp.Or(cmp.Compare(counts[b], counts[a]), cmp.Compare(a, b)) })
		var parts []string
		for _, l := range ls {
			parts = append(parts, fmt.Sprintf("%s %d", l, counts[l]))
		}
		fmt.Fprintf(&b, "| %s | %d | %s |\n", top, n, strings.Join(parts, ", "))
	}
	t.Log(b.String())
}

// gitGrep returns the note paths of the markdown files in which
// `git grep -i -l -w -E` finds one of the words.
func gitGrep(tb testing.TB, dir string, forms []string) map[string]bool {
	tb.Helper()
	cmd := exec.Command("git", "-C", dir, "grep", "-z", "-i", "-l", "-w", "-E", strings.Join(forms, "|"), "--", "*.md")
	out, err := cmd.Output()
	if err != nil {
		if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 1 {
			return map[string]bool{} // nothing found
		}
		tb.Fatalf("%v: %v", cmd, err)
	}
	found := map[string]bool{}
	for _, l := range strings.Split(string(out), "\x00") {
		if l != "" {
			found[strings.TrimSuffix(l, ".md")] = true
		}
	}
	return found
}

// wordNotes returns the notes whose text holds one of the words, as a
// whole word, ignoring case.
func wordNotes(texts map[string]string, forms []string) map[string]bool {
	out := map[string]bool{}
	for p, s := range texts {
		for _, w := range words(s) {
			if slices.Contains(forms, w) {
				out[p] = true
				break
			}
		}
	}
	return out
}

// words returns the lowercased runs of letters and digits of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// latency returns the median time of a search for q.
func latency(tb testing.TB, x *Index, q string) time.Duration {
	req := wiki.SearchRequest{Query: parse(tb, q), Limit: 10, Snippets: 1}
	var ds []time.Duration
	for range 21 {
		t0 := time.Now()
		find(tb, x, req)
		ds = append(ds, time.Since(t0))
	}
	return median(ds)
}

func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2].Round(time.Microsecond)
}

func setOf(paths []string) map[string]bool {
	out := make(map[string]bool, len(paths))
	for _, p := range paths {
		out[p] = true
	}
	return out
}

func overlap(a, b map[string]bool) int {
	n := 0
	for p := range a {
		if b[p] {
			n++
		}
	}
	return n
}

func pct(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}
