package quality_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/quality"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/wiki"
)

// floor is what a set must reach: hybrid search's share of questions with
// a right note in the top 5, and gather_context's share with a right
// note's section in its answer.
type floor struct{ hybrid5, gather float64 }

// floors hold each set, with each model, at its measured figures less
// three questions for the noise of small changes elsewhere (or at the
// floor before, when that is higher). The targets are 80% and 85%: with
// the sentence encoder the three sets the fusion was tuned on reach both;
// rclone's command reference, which nobody tuned on, is under both.
var floors = map[string]map[string]floor{
	"obsidian-help": {
		"glove":   {hybrid5: 0.60, gather: 0.66}, // measured 63% and 72%
		"encoder": {hybrid5: 0.80, gather: 0.80}, // measured 85% and 85%
	},
	"anki-manual": {
		"glove":   {hybrid5: 0.78, gather: 0.78}, // measured 82% and 84%
		"encoder": {hybrid5: 0.87, gather: 0.82}, // measured 93% and 88%
	},
	"docker-cli": {
		"glove":    {hybrid5: 0.71, gather: 0.76}, // measured 77% and 80%
		"encoder":  {hybrid5: 0.80, gather: 0.85}, // measured 85% and 90%
		"building": {hybrid5: 0.71, gather: 0.76}, // measured 77% and 80%
	},
	"rclone-commands": {
		"glove":   {hybrid5: 0.43, gather: 0.51}, // measured 48% and 57%
		"encoder": {hybrid5: 0.72, gather: 0.63}, // measured 78% and 69%
	},
}

// TestQuality_ObsidianHelp asks the Obsidian help vault's questions. Its
// corpus is a git repository: point WIKID_EVAL_OBSIDIAN_HELP at a clone of
// github.com/obsidianmd/obsidian-help; the test is skipped without one.
func TestQuality_ObsidianHelp(t *testing.T) { runSet(t, "obsidian-help") }

// TestQuality_DockerCLI asks the Docker CLI documentation's questions. Its
// corpus comes through the Go module proxy; the test is skipped when the
// proxy cannot be reached, except under CI.
func TestQuality_DockerCLI(t *testing.T) { runSet(t, "docker-cli") }

// TestQuality_AnkiManual asks the Anki manual's questions, written in
// users' own words by someone who did not tune wikid on them. Its corpus
// is a git repository: point WIKID_EVAL_ANKI_MANUAL at a clone of
// github.com/ankitects/anki-manual; the test is skipped without one.
func TestQuality_AnkiManual(t *testing.T) { runSet(t, "anki-manual") }

// TestQuality_RcloneCommands asks rclone's command reference questions
// written before wikid was measured on it: the set nobody tuned on. Its
// corpus comes through the Go module proxy; the test is skipped when the
// proxy cannot be reached, except under CI.
func TestQuality_RcloneCommands(t *testing.T) { runSet(t, "rclone-commands") }

func runSet(t *testing.T, name string) {
	// A set fetches its corpus and indexes it: minutes under the race
	// detector. make quality runs the sets without -short and without
	// -race; under -short they run when WIKID_EVAL names the models.
	chosen := chosenModels(t)
	set, err := quality.Load(filepath.Join("..", "..", "fixtures", "eval", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// WIKID_EVAL_KEEP names a folder that keeps each corpus with its
	// indexes and vectors between runs, for tuning; by default every run
	// starts anew.
	dir := t.TempDir()
	kept := false
	if keep := os.Getenv("WIKID_EVAL_KEEP"); keep != "" {
		dir = filepath.Join(keep, name)
		_, err := os.Stat(filepath.Join(dir, ".git"))
		kept = err == nil
	}
	clone := os.Getenv("WIKID_EVAL_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := quality.Materialize(ctx, set, clone, dir); err != nil && !kept {
		if errors.Is(err, quality.ErrNoCorpus) || os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	scan := measureScan(t, dir, set)
	var reports []*report
	for _, m := range chosen {
		emb, opts := m.embedder(t)
		w := open(t, dir, m, emb, opts)
		dump(t, w, m.name, set, probes)
		r := measure(t, w, dir, set)
		w.Close(ctx)
		r.model, r.scan = m.name, scan
		reports = append(reports, r)
	}
	t.Log("\n" + sideBySide(reports))
	if testing.Verbose() {
		for _, r := range reports {
			t.Logf("%s: best cosines of questions %.2f", r.model, slices.Sorted(slices.Values(r.near)))
			t.Logf("%s: best cosines of unrelated %.2f", r.model, slices.Sorted(slices.Values(r.far)))
		}
	}
	for _, r := range reports {
		f := floors[name][r.model]
		if got := r.hybrid.Share5(); got < f.hybrid5 {
			t.Errorf("%s: hybrid top-5 %.0f%%, under the floor of %.0f%%", r.model, 100*got, 100*f.hybrid5)
		}
		if got := r.gatherShare(); got < f.gather {
			t.Errorf("%s: gather_context brings a right note for %.0f%%, under the floor of %.0f%%", r.model, 100*got, 100*f.gather)
		}
		if r.empty > 0 {
			t.Errorf("%s: %d questions typed as they are found nothing: %q", r.model, r.empty, r.emptyQuestions)
		}
	}
	if got, text := scan.Share5(), reports[0].text.Share5(); got < text-0.05 {
		t.Errorf("while the index is built, text search top-5 %.0f%%, more than 5 points under the index's %.0f%%", 100*got, 100*text)
	}
}

// probes are questions about nothing in particular: the notes near them
// in meaning are near every question (hubs).
var probes = []string{"how do I do this", "what is this", "help", "settings and options", "a question", "overview"}

// open opens a wiki over dir as wikid serve would with a model whose
// vectors it keeps in a folder of the model's name, and waits until every
// note is indexed and embedded.
func open(t *testing.T, dir string, m model, emb semantic.Embedder, opts semantic.Options) *wiki.Wiki {
	ctx := context.Background()
	name := m.name
	d := deps(t, dir, "")
	sem, err := semantic.Open(ctx, filepath.Join(d.Store.Dir(), "semantic-"+name), emb, opts)
	if err != nil {
		t.Fatal(err)
	}
	d.Semantic = sem
	w, err := wiki.Open(ctx, d, wiki.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(ctx) })
	if err := w.CatchUp(ctx); err != nil {
		t.Fatal(err)
	}
	next := time.Now().Add(time.Minute)
	for st, _ := w.SemanticState(); st.Pending > 0 && !m.building; st, _ = w.SemanticState() {
		if st.Error != "" {
			t.Fatalf("%s: %s", name, st.Error)
		}
		if time.Now().After(next) {
			t.Logf("%s: %d of %d chunks embedded", name, st.Chunks-st.Pending, st.Chunks)
			next = time.Now().Add(time.Minute)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return w
}

// quiet discards the logs.
var quiet = slog.New(slog.DiscardHandler)

// deps opens the store of the checkout at dir, its history index and a
// search index in indexDir ("" for the store's own), and a link graph.
func deps(t *testing.T, dir, indexDir string) wiki.Deps {
	ctx := context.Background()
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if indexDir == "" {
		indexDir = filepath.Join(store.Dir(), "index")
	}
	idx, err := index.Open(ctx, indexDir, index.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return wiki.Deps{Store: store, Index: idx, History: hist, Graph: graph.New()}
}

// heldIndex is a search index whose updates wait for the wiki to close:
// the wiki sees it being built for as long as it is open.
type heldIndex struct{ wiki.Index }

func (h heldIndex) Apply(ctx context.Context, u *wiki.Update) error {
	<-ctx.Done()
	return ctx.Err()
}

// measureScan asks the set's questions as typed while the search index
// is first built, of a wiki over dir whose search index stays empty (in a
// folder of its own), and returns their figures: the answers come from
// scans of the notes.
func measureScan(t *testing.T, dir string, set *quality.Set) quality.Figures {
	ctx := context.Background()
	d := deps(t, dir, filepath.Join(t.TempDir(), "index"))
	d.Index = heldIndex{d.Index}
	w, err := wiki.Open(ctx, d, wiki.Options{Logger: quiet, Serving: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close(ctx)
	for !w.IndexState().Building {
		time.Sleep(time.Millisecond)
	}
	var f quality.Figures
	for _, q := range set.Questions {
		res, err := w.Search(ctx, wiki.SearchParams{Query: q.Question, Limit: 10})
		if err != nil {
			t.Fatalf("%q while the index is built: %v", q.Question, err)
		}
		if res.Scan == nil {
			t.Fatalf("%q while the index is built: not answered from a scan", q.Question)
		}
		paths := make([]string, len(res.Results))
		for i, h := range res.Results {
			paths[i] = h.Path
		}
		f.Add(quality.Rank(paths, q.Notes))
	}
	return f
}

// report holds a set's figures for every way of asking.
type report struct {
	set, model                   string
	notes                        int
	text, semantic, hybrid, grep quality.Figures
	// scan is text search while the search index is built, answered
	// from a scan of the notes (see wiki.ScanInfo).
	scan quality.Figures
	// either takes, for each question, the better of the text and the
	// semantic rank: the most any fusion of the two rankings could reach.
	either quality.Figures
	// gatherHit and gatherLead count the questions whose gather_context
	// answer holds a right note's section, and leads with one.
	gatherHit, gatherLead, gatherTokens int
	empty                               int
	emptyQuestions                      []string
	// resolveRight counts the questions a semantic resolve_notes answers
	// with a right note first, resolveFound those it finds a right note
	// for; resolveNone the unrelated questions it says no note exists
	// for; the Default counts are those at wiki.DefaultSemanticThreshold
	// instead of the model's threshold. near and far are the best cosine
	// scores of the questions and of the unrelated ones.
	resolveRight, resolveFound, resolveNone int
	resolveFoundDefault, resolveNoneDefault int
	near, far                               []float64
	// places counts how often each note is in hybrid search's top 5.
	places map[string]int
}

func (r *report) gatherShare() float64 {
	return float64(r.gatherHit) / float64(max(r.text.N, 1))
}

// hubPlaces returns how many of hybrid search's top-5 places the k notes
// found there most often hold.
func (r *report) hubPlaces(k int) int {
	counts := slices.Collect(maps.Values(r.places))
	slices.Sort(counts)
	slices.Reverse(counts)
	n := 0
	for _, c := range counts[:min(k, len(counts))] {
		n += c
	}
	return n
}

// bestRank returns the better of two ranks, 0 standing for none.
func bestRank(a, b int) int {
	switch {
	case a == 0:
		return b
	case b == 0:
		return a
	}
	return min(a, b)
}

// quantiles describes scores by their 10th, 50th and 90th percentiles.
func quantiles(xs []float64) string {
	if len(xs) == 0 {
		return "none"
	}
	s := slices.Sorted(slices.Values(xs))
	return fmt.Sprintf("p10 %.2f p50 %.2f p90 %.2f", s[len(s)/10], s[len(s)/2], s[len(s)*9/10])
}

// resolve resolves a name by meaning with the model's threshold, and
// returns the paths it matched, those it would match at
// wiki.DefaultSemanticThreshold, and the best cosine score, matched or not.
func resolve(t *testing.T, w *wiki.Wiki, name string) (matched, byDefault []string, best float64) {
	ask := func(threshold float64) []wiki.NameMatch {
		res, err := w.Resolve(context.Background(), wiki.ResolveRequest{Names: []string{name}, Strategy: "semantic", Threshold: threshold})
		if err != nil {
			t.Fatalf("resolve %q: %v", name, err)
		}
		return res.Results[0].Matches
	}
	for _, m := range ask(0) {
		matched = append(matched, m.Path)
	}
	for _, m := range ask(0.01) {
		if m.Score >= wiki.DefaultSemanticThreshold {
			byDefault = append(byDefault, m.Path)
		}
		best = max(best, m.Score)
	}
	return matched, byDefault, best
}

// measure asks every question of the set in every way.
func measure(t *testing.T, w *wiki.Wiki, dir string, set *quality.Set) *report {
	ctx := context.Background()
	r := &report{set: set.Name, places: map[string]int{}}
	if st, ok := w.SemanticState(); ok {
		r.notes = st.Notes
	}
	search := func(q, mode string) []string {
		res, err := w.Search(ctx, wiki.SearchParams{Query: q, Mode: mode, Limit: 10})
		if err != nil {
			t.Fatalf("%s %q: %v", mode, q, err)
		}
		paths := make([]string, len(res.Results))
		for i, h := range res.Results {
			paths[i] = h.Path
		}
		return paths
	}
	for _, q := range set.Questions {
		typed := search(q.Question, wiki.SearchText)
		if len(typed) == 0 {
			r.empty++
			r.emptyQuestions = append(r.emptyQuestions, q.Question)
		}
		textRank := quality.Rank(typed, q.Notes)
		semRank := quality.Rank(search(q.Question, wiki.SearchSemantic), q.Notes)
		r.text.Add(textRank)
		r.semantic.Add(semRank)
		r.either.Add(bestRank(textRank, semRank))
		hybrid := search(q.Question, wiki.SearchHybrid)
		r.hybrid.Add(quality.Rank(hybrid, q.Notes))
		for _, p := range hybrid[:min(5, len(hybrid))] {
			r.places[p]++
		}
		grep, err := quality.GrepRanking(ctx, dir, q.Question)
		if err != nil {
			t.Fatal(err)
		}
		r.grep.Add(quality.Rank(grep, q.Notes))
		c, err := w.GatherContext(ctx, wiki.ContextRequest{Question: q.Question})
		if err != nil {
			t.Fatalf("gather_context %q: %v", q.Question, err)
		}
		var cited []string
		for _, s := range c.Sections {
			cited = append(cited, s.Path)
		}
		if rank := quality.Rank(cited, q.Notes); rank > 0 {
			r.gatherHit++
			if rank == 1 {
				r.gatherLead++
			}
		}
		r.gatherTokens += c.Tokens
		matched, byDefault, best := resolve(t, w, q.Question)
		switch quality.Rank(matched, q.Notes) {
		case 0:
		case 1:
			r.resolveRight++
			r.resolveFound++
		default:
			r.resolveFound++
		}
		if quality.Rank(byDefault, q.Notes) > 0 {
			r.resolveFoundDefault++
		}
		r.near = append(r.near, best)
		if testing.Verbose() && os.Getenv("WIKID_EVAL_DETAIL") != "" {
			h := search(q.Question, wiki.SearchHybrid)
			t.Logf("%q want %v\n  text %d %v\n  hybrid %d %v\n  gather %v", q.Question, q.Notes,
				quality.Rank(typed, q.Notes), typed[:min(5, len(typed))], quality.Rank(h, q.Notes), h[:min(5, len(h))], cited)
		}
	}
	for _, q := range set.Unrelated {
		matched, byDefault, best := resolve(t, w, q)
		if len(matched) == 0 {
			r.resolveNone++
		}
		if len(byDefault) == 0 {
			r.resolveNoneDefault++
		}
		r.far = append(r.far, best)
	}
	return r
}
