package e2e_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/embed/embedtest"
	"github.com/wikid/wikid/internal/encoder/builtin"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/staticembed"
)

// semanticNotes are notes on the test endpoint's topics, each worded
// without the words a person asks with.
var semanticNotes = map[string]string{
	"people/first-week.md": "---\ntitle: First week\n---\n# First week\n\nPlan for the new hire: laptop, accounts, a buddy.\n",
	"food/bread.md":        "# Sourdough\n\nMix flour and water, bake in a hot oven.\n",
	"travel/lisbon.md":     "# Lisbon\n\nFlight on Monday, hotel near the river.\n",
	"money/q3.md":          "# Q3\n\nInvoices are late; spending on taxes grew.\n",
	".obsidian/app.json":   "{}\n",
}

type semanticHit struct {
	Path     string  `json:"path"`
	Title    string  `json:"title"`
	Score    float64 `json:"score"`
	Snippets []struct {
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"snippets"`
}

type semanticPage struct {
	Results    []semanticHit `json:"results"`
	Mode       string        `json:"mode"`
	Fallback   string        `json:"fallback"`
	Unembedded int           `json:"unembedded"`
}

// TestE2E_Semantic drives search by meaning through the official client:
// the daemon embeds through an OpenAI-compatible endpoint the test runs.
func TestE2E_Semantic(t *testing.T) {
	t.Parallel()
	requireNode(t)
	srv := embedtest.Start()
	defer srv.Close()
	dir := gittest.Init(t)
	files := maps.Clone(semanticNotes)
	files[".wikid.yaml"] = "semantic:\n  base_url: " + srv.URL + "\n  model: topics\n  batch_size: 2\n"
	gittest.Commit(t, dir, "notes", files)
	plain := gittest.Init(t)
	gittest.Commit(t, plain, "notes", semanticNotes)

	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir))
	bare := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", plain))

	t.Run("tools appear only when configured", func(t *testing.T) {
		has := func(c *tsClient) (related, mode bool) {
			for _, tl := range c.listTools(t) {
				switch tl.Name {
				case "related_notes":
					related = true
				case "search_notes":
					b, _ := json.Marshal(tl.InputSchema)
					mode = strings.Contains(string(b), `"mode"`)
				}
			}
			return related, mode
		}
		if related, mode := has(c); !related || !mode {
			t.Errorf("configured: related_notes %v, search_notes.mode %v", related, mode)
		}
		if related, mode := has(bare); related || mode {
			t.Errorf("not configured: related_notes %v, search_notes.mode %v", related, mode)
		}
		res := bare.call(t, "search_notes", map[string]any{"query": "x", "mode": "semantic"})
		if !res.IsError || !strings.HasPrefix(res.text(), "INVALID_PARAMS") {
			t.Errorf("mode on a wiki without it: %q", res.text())
		}
	})

	// Wait for the background embedding, as a person would watch wiki_status.
	deadline := time.Now().Add(30 * time.Second)
	for {
		res := c.call(t, "wiki_status", map[string]any{})
		var st struct {
			Semantic struct {
				Enabled    bool   `json:"enabled"`
				Notes      int    `json:"notes"`
				Unembedded int    `json:"unembedded"`
				Model      string `json:"model"`
				CaughtUp   bool   `json:"caught_up"`
			} `json:"semantic"`
		}
		if err := json.Unmarshal(res.StructuredContent, &st); err != nil {
			t.Fatal(err)
		}
		if st.Semantic.Enabled && st.Semantic.CaughtUp && st.Semantic.Unembedded == 0 && st.Semantic.Notes == 4 {
			if st.Semantic.Model != "topics" || !strings.Contains(res.text(), "Semantic search: topics (http://") {
				t.Errorf("status %+v, text %q", st.Semantic, res.text())
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not embedded: %s", res.StructuredContent)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, r := range srv.Requests() {
		if len(r.Inputs) > 2 {
			t.Errorf("a request of %d texts with batch_size 2", len(r.Inputs))
		}
	}

	search := func(t *testing.T, args map[string]any) (semanticPage, *tsResult) {
		t.Helper()
		res := c.call(t, "search_notes", args)
		var page semanticPage
		if res.IsError || json.Unmarshal(res.StructuredContent, &page) != nil {
			t.Fatalf("search_notes %v: %s", args, res.text())
		}
		return page, res
	}

	t.Run("modes", func(t *testing.T) {
		page, res := search(t, map[string]any{"query": "onboarding a designer", "mode": "semantic"})
		if len(page.Results) == 0 || page.Results[0].Path != "people/first-week" || page.Mode != "semantic" ||
			len(page.Results[0].Snippets) != 1 || !strings.Contains(page.Results[0].Snippets[0].Text, "new hire") {
			t.Fatalf("semantic: %s", res.StructuredContent)
		}
		if !strings.Contains(res.text(), "Ranked by: semantic.") {
			t.Errorf("text: %q", res.text())
		}
		if page, _ := search(t, map[string]any{"query": "onboarding a designer"}); len(page.Results) != 0 || page.Mode != "text" {
			t.Errorf("text search found %v, mode %q", page.Results, page.Mode)
		}
		page, res = search(t, map[string]any{"query": "vacation flight", "mode": "hybrid", "limit": 2})
		if len(page.Results) == 0 || page.Results[0].Path != "travel/lisbon" || page.Mode != "hybrid" || page.Results[0].Score > 1 {
			t.Errorf("hybrid: %s", res.StructuredContent)
		}
	})

	t.Run("related and resolve", func(t *testing.T) {
		res := c.call(t, "write_note", map[string]any{"path": "people/buddy", "content": "# Buddy\n\nEvery newcomer gets a colleague.\n"})
		if res.IsError {
			t.Fatal(res.text())
		}
		var page semanticPage
		for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(50 * time.Millisecond) {
			res = c.call(t, "related_notes", map[string]any{"path": "people/first-week", "limit": 2})
			if !res.IsError {
				json.Unmarshal(res.StructuredContent, &page)
				if len(page.Results) > 0 && page.Unembedded == 0 {
					break
				}
			}
		}
		if len(page.Results) == 0 || page.Results[0].Path != "people/buddy" {
			t.Errorf("related_notes: %s %s", res.StructuredContent, res.text())
		}
		res = c.call(t, "resolve_notes", map[string]any{"names": []string{"baking"}, "strategy": "semantic"})
		var rr struct {
			Results []struct {
				Exists  bool `json:"exists"`
				Matches []struct {
					Path      string `json:"path"`
					MatchedBy string `json:"matched_by"`
				} `json:"matches"`
			} `json:"results"`
		}
		if err := json.Unmarshal(res.StructuredContent, &rr); err != nil || !rr.Results[0].Exists ||
			rr.Results[0].Matches[0].Path != "food/bread" || rr.Results[0].Matches[0].MatchedBy != "meaning" {
			t.Errorf("resolve_notes: %s %s", res.StructuredContent, res.text())
		}
	})

	t.Run("roux search", func(t *testing.T) {
		// Its own repository: a process without the daemon holds its index.
		roux := gittest.Init(t)
		gittest.Commit(t, roux, "notes", files)
		rx := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", roux, "--profile", "roux"))
		want := seedTools(t, "roux")
		maps.Copy(want, seedTools(t, "roux-semantic"))
		checkTools(t, rx, "roux", want)
		var res *tsResult
		var nodes []struct {
			ID      string  `json:"id"`
			Content *string `json:"content"`
			Score   float64 `json:"score"`
		}
		for start := time.Now(); time.Since(start) < 20*time.Second && len(nodes) == 0; time.Sleep(50 * time.Millisecond) {
			res = rx.call(t, "search", map[string]any{"query": "machine for baking bread", "limit": 2, "include_content": true})
			json.Unmarshal([]byte(res.text()), &nodes)
		}
		if res.IsError || json.Unmarshal([]byte(res.text()), &nodes) != nil || len(nodes) == 0 || nodes[0].ID != "food/bread.md" ||
			nodes[0].Content == nil || nodes[0].Score <= 0 || nodes[0].Score > 1 {
			t.Errorf("roux search: %s", res.text())
		}
		if res := rx.call(t, "search", map[string]any{"query": "x", "limit": 51}); !res.IsError {
			t.Errorf("limit 51: %s", res.text())
		}
	})

	t.Run("endpoint down", func(t *testing.T) {
		srv.Close()
		res := c.call(t, "search_notes", map[string]any{"query": "a question never asked", "mode": "semantic"})
		if !res.IsError || !strings.HasPrefix(res.text(), "UNAVAILABLE: ") {
			t.Errorf("semantic with the endpoint down: %q", res.text())
		}
		page, res := search(t, map[string]any{"query": "flour", "mode": "hybrid"})
		if page.Mode != "text" || !strings.Contains(page.Fallback, "unreachable") || len(page.Results) != 1 ||
			!strings.Contains(res.text(), "these are text results") {
			t.Errorf("hybrid with the endpoint down: %s\n%s", res.StructuredContent, res.text())
		}
		res = c.call(t, "wiki_status", map[string]any{})
		if !strings.Contains(res.text(), "last error: embeddings endpoint unreachable") {
			t.Errorf("status: %q", res.text())
		}
	})
}

// TestE2E_SemanticBuiltin drives search by meaning with the built-in
// model: no endpoint, nothing downloaded.
func TestE2E_SemanticBuiltin(t *testing.T) {
	t.Parallel()
	requireNode(t)
	if !staticembed.Available() {
		if os.Getenv("CI") != "" {
			t.Fatal("the built-in model is not built: make test builds it")
		}
		t.Skip("the built-in model is not built: run make model")
	}
	dir := gittest.Init(t)
	files := map[string]string{".wikid.yaml": "semantic:\n  provider: builtin\n"}
	for _, name := range []string{"sourdough", "lisbon-trip", "tomatoes", "dentist", "guitar"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "semantic", "notes", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		files["notes/"+name+".md"] = string(b)
	}
	gittest.Commit(t, dir, "notes", files)
	c := connectTS(t, startBridge(t), stdioRequest(wikidBin, "--repo", dir))
	// The encoder embeds in the background. The test waits on wiki_status,
	// not on searches by meaning: the embedding yields to those, so a
	// search every few milliseconds would starve it.
	status := "Semantic search: " + builtin.Name + " (built in), 5 notes, all embedded"
	var res *tsResult
	for start := time.Now(); time.Since(start) < 4*time.Minute; time.Sleep(200 * time.Millisecond) {
		if res = c.call(t, "wiki_status", map[string]any{}); strings.Contains(res.text(), status) {
			break
		}
	}
	if !strings.Contains(res.text(), status) {
		t.Fatalf("status: %q", res.text())
	}
	var page semanticPage
	res = c.call(t, "search_notes", map[string]any{"query": "how do I make bread at home", "mode": "semantic"})
	if res.IsError {
		t.Fatal(res.text())
	}
	json.Unmarshal(res.StructuredContent, &page)
	if page.Unembedded != 0 {
		t.Errorf("%d notes unembedded after wiki_status said all were embedded", page.Unembedded)
	}
	if len(page.Results) == 0 || page.Results[0].Path != "notes/sourdough" {
		t.Errorf("builtin: %s", res.StructuredContent)
	}
}
