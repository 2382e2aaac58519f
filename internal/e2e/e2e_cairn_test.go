package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// seedTools reads a profile's tool definitions as its seed document gives
// them (fixtures/profiles/NAME.json): name, description and input schema.
func seedTools(tb testing.TB, profile string) map[string]map[string]any {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "profiles", profile+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, t := range doc.Tools {
		out[t["name"].(string)] = t
	}
	return out
}

// checkSeedTools checks that a profile lists exactly its seed's tools,
// each with the seed's description and input schema.
func checkSeedTools(t *testing.T, c *tsClient, profile string) {
	t.Helper()
	checkTools(t, c, profile, seedTools(t, profile))
}

// checkTools checks that a profile lists exactly the tools in want, each
// with its description and input schema.
func checkTools(t *testing.T, c *tsClient, profile string, want map[string]map[string]any) {
	t.Helper()
	got := c.listTools(t)
	if len(got) != len(want) {
		var names []string
		for _, tl := range got {
			names = append(names, tl.Name)
		}
		t.Errorf("%s lists %d tools %v, the seed %d", profile, len(got), names, len(want))
	}
	for _, tl := range got {
		w, ok := want[tl.Name]
		if !ok {
			t.Errorf("%s lists %s, which the seed does not have", profile, tl.Name)
			continue
		}
		// A description may go on to say what wikid does where the seed
		// is silent.
		if !strings.HasPrefix(tl.Description, w["description"].(string)) {
			t.Errorf("%s description:\n got %q\nwant %q", tl.Name, tl.Description, w["description"])
		}
		if !reflect.DeepEqual(normalize(t, tl.InputSchema), normalize(t, w["inputSchema"])) {
			g, _ := json.Marshal(tl.InputSchema)
			ws, _ := json.Marshal(w["inputSchema"])
			t.Errorf("%s input schema:\n got %s\nwant %s", tl.Name, g, ws)
		}
		switch ws, ok := w["outputSchema"]; {
		case !ok && tl.OutputSchema != nil:
			t.Errorf("%s has an output schema; the seed answers in text", tl.Name)
		case ok && !reflect.DeepEqual(normalize(t, tl.OutputSchema), normalize(t, ws)):
			g, _ := json.Marshal(tl.OutputSchema)
			wb, _ := json.Marshal(ws)
			t.Errorf("%s output schema:\n got %s\nwant %s", tl.Name, g, wb)
		}
	}
}

// normalize round-trips a JSON value, so that two decodings compare.
func normalize(tb testing.TB, v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// cairnRepo is a wiki as Cairn's document describes one: people, daily
// notes and projects that link to each other.
func cairnRepo(tb testing.TB) string {
	dir := gittest.Init(tb)
	gittest.Commit(tb, dir, "notes", map[string]string{
		"entities/person/jamie.md":       "---\ntitle: Jamie Wilson\ntype: person\ntags: [co-founder, ceo]\n---\n# Jamie Wilson\n\nCEO and co-founder of Brainwaves.\n\n## Meetings\n\n- 2026-02-20 board\n\n## Notes\n\nLikes launches.\n",
		"entities/person/ben.md":         "---\ntitle: Ben Smith\ntype: person\n---\n# Ben Smith\n\nWorks with [[entities/person/jamie]].\n",
		"entities/company/brainwaves.md": "---\ntitle: Brainwaves\ntype: company\n---\n# Brainwaves\n",
		"daily/2026-02-24.md":            "---\ntitle: 2026-02-24\ntype: daily\ntags: [daily]\n---\n# 2026-02-24\n\nDiscussed V2.1 launch with [[entities/person/jamie]].\n",
		"projects/brainwaves-v2.md":      "---\ntitle: Brainwaves V2\ntags: [project]\n---\n# Brainwaves V2\n\nLed by [[entities/person/jamie|Jamie Wilson]] at [[entities/company/brainwaves]].\n",
	})
	return dir
}

// cairnJSON calls a Cairn tool that must succeed and decodes its text.
func cairnJSON(t *testing.T, c *tsClient, name string, args map[string]any) map[string]any {
	t.Helper()
	res := c.call(t, name, args)
	if res.IsError {
		t.Fatalf("%s %v: %s", name, args, res.text())
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.text()), &out); err != nil {
		t.Fatalf("%s: the text is not a JSON object: %v\n%s", name, err, res.text())
	}
	return out
}

// cairnError calls a Cairn tool that must fail, as Cairn fails: isError
// and a text "error_type: message". It returns the text.
func cairnError(t *testing.T, c *tsClient, name string, args map[string]any, errorType string) string {
	t.Helper()
	res := c.call(t, name, args)
	if !res.IsError {
		t.Errorf("%s %v succeeded, want %s: %s", name, args, errorType, res.text())
		return ""
	}
	if !strings.HasPrefix(res.text(), errorType+": ") {
		t.Errorf("%s %v: %q, want %s: message", name, args, res.text(), errorType)
	}
	return res.text()
}

// oneCommit checks that the last commit is one change by tool, made since
// before, with a clean checkout and a sound repository.
func oneCommit(t *testing.T, dir, before, tool string) {
	t.Helper()
	if n := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--count", before+"..HEAD")); n != "1" {
		t.Errorf("%s made %s commits, want 1", tool, n)
	}
	if msg := gittest.Git(t, dir, "log", "-1", "--format=%B"); !strings.Contains(msg, "Wiki-Tool: "+tool) {
		t.Errorf("%s's commit:\n%s", tool, msg)
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("after %s, status:\n%s", tool, st)
	}
	gittest.Fsck(t, dir)
}

func headOf(t *testing.T, dir string) string {
	return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
}

// TestE2E_ProfileCairn drives `wikid serve --profile cairn` with the
// official TypeScript client, checking every tool and behaviour Cairn's
// document states, and every change with git.
func TestE2E_ProfileCairn(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := cairnRepo(t)
	bridge := startBridge(t)
	c := connectTS(t, bridge, stdioRequest(wikidBin, "--repo", dir, "--profile", "cairn"))
	c.plain = true
	checkSeedTools(t, c, "cairn")

	t.Run("cairn_read", func(t *testing.T) {
		text := c.call(t, "cairn_read", map[string]any{"path": "entities/person/jamie"}).text()
		for _, want := range []string{"---\ntitle: Jamie Wilson\ntype: person\ntags: [co-founder, ceo]\nmodified: ",
			"backlinks: [daily/2026-02-24, entities/person/ben, projects/brainwaves-v2]\n---\n\n# Jamie Wilson\n\nCEO and co-founder"} {
			if !strings.Contains(text, want) {
				t.Errorf("cairn_read lacks %q:\n%s", want, text)
			}
		}
		if !regexp.MustCompile(`\nmodified: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n`).MatchString(text) {
			t.Errorf("modified is not an RFC 3339 time:\n%s", text)
		}
		section := c.call(t, "cairn_read", map[string]any{"path": "entities/person/jamie", "section": "Meetings"}).text()
		if !strings.Contains(section, "---\n\n## Meetings\n\n- 2026-02-20 board\n") || strings.Contains(section, "Notes") {
			t.Errorf("section Meetings:\n%s", section)
		}
		meta := c.call(t, "cairn_read", map[string]any{"path": "entities/person/jamie", "metadata_only": true}).text()
		if strings.Contains(meta, "CEO and co-founder") || !strings.Contains(meta, "context: Discussed V2.1 launch with [[entities/person/jamie]].") {
			t.Errorf("metadata_only: the body, or no backlink context:\n%s", meta)
		}
		cairnError(t, c, "cairn_read", map[string]any{"path": "entities/person/nobody"}, "NOT_FOUND")
		cairnError(t, c, "cairn_read", map[string]any{"path": "entities/person/jamie", "section": "Hobbies"}, "NOT_FOUND")
		cairnError(t, c, "cairn_read", map[string]any{}, "INVALID_PARAMS")
	})

	t.Run("cairn_write", func(t *testing.T) {
		before := headOf(t, dir)
		out := cairnJSON(t, c, "cairn_write", map[string]any{"path": "entities/person/ada",
			"content": "---\ntags: [engineer]\n---\n# Ada\n\nWorks with [[entities/person/jamie]] and [[entities/person/ben]].\n",
			"tags":    []string{"advisor"}, "aliases": []string{"Ada L."}})
		if out["path"] != "entities/person/ada" || out["created"] != true || out["links_found"] != 2.0 {
			t.Errorf("cairn_write: %v, want path, created true, links_found 2", out)
		}
		oneCommit(t, dir, before, "cairn_write")
		file := gittest.Git(t, dir, "show", "HEAD:entities/person/ada.md")
		if !strings.Contains(file, "engineer") || !strings.Contains(file, "advisor") || !strings.Contains(file, "Ada L.") {
			t.Errorf("the tags were not merged, or the alias is missing:\n%s", file)
		}
		before = headOf(t, dir)
		out = cairnJSON(t, c, "cairn_write", map[string]any{"path": "entities/person/ada", "content": "# Ada\n\nRewritten.\n"})
		if out["created"] != false || out["links_found"] != 0.0 {
			t.Errorf("cairn_write over a note (upsert): %v", out)
		}
		oneCommit(t, dir, before, "cairn_write")
		cairnError(t, c, "cairn_write", map[string]any{"path": "entities/person/ada"}, "INVALID_PARAMS")
	})

	t.Run("cairn_patch", func(t *testing.T) {
		size := func() int {
			n, _ := strconv.Atoi(strings.TrimSpace(gittest.Git(t, dir, "cat-file", "-s", "HEAD:entities/person/jamie.md")))
			return n
		}
		for _, p := range []map[string]any{
			{"op": "append", "content": "Appended line."},
			{"op": "prepend", "content": "Prepended line."},
			{"op": "append_section", "section": "Meetings", "content": "- 2026-02-24 launch review"},
			{"op": "prepend_section", "section": "Notes", "content": "First note."},
			{"op": "replace", "find": "Likes launches.", "content": "Loves launches."},
		} {
			p["path"] = "entities/person/jamie"
			before, was := headOf(t, dir), size()
			out := cairnJSON(t, c, "cairn_patch", p)
			if out["path"] != "entities/person/jamie" || out["op"] != p["op"] || out["bytes_added"] != float64(size()-was) {
				t.Errorf("cairn_patch %v: %v, want bytes_added %d", p, out, size()-was)
			}
			oneCommit(t, dir, before, "cairn_patch")
		}
		file := gittest.Git(t, dir, "show", "HEAD:entities/person/jamie.md")
		// Content goes in as lines: prepend right after the frontmatter,
		// append at the end, a section's at its start or end.
		for _, want := range []string{"---\nPrepended line.\n# Jamie Wilson", "- 2026-02-20 board\n- 2026-02-24 launch review\n",
			"## Notes\n\nFirst note.\nLoves launches.", "Loves launches.\nAppended line.\n"} {
			if !strings.Contains(file, want) {
				t.Errorf("after the patches the note lacks %q:\n%s", want, file)
			}
		}
		before := headOf(t, dir)
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "replace", "content": "x"}, "INVALID_PARAMS")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "append_section", "content": "x"}, "INVALID_PARAMS")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "replace", "find": "no such text", "content": "x"}, "NOT_FOUND")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "replace", "find": "launch", "content": "x"}, "AMBIGUOUS")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "append_section", "section": "Hobbies", "content": "x"}, "NOT_FOUND")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/nobody", "op": "append", "content": "x"}, "NOT_FOUND")
		cairnError(t, c, "cairn_patch", map[string]any{"path": "entities/person/jamie", "op": "replace_section", "content": "x"}, "INVALID_PARAMS")
		if headOf(t, dir) != before {
			t.Error("a failed patch made a commit")
		}
	})

	t.Run("cairn_search", func(t *testing.T) {
		cairnError(t, c, "cairn_search", map[string]any{}, "INVALID_PARAMS")
		out := cairnJSON(t, c, "cairn_search", map[string]any{"query": "launch"})
		results := out["results"].([]any)
		if len(results) == 0 || out["total"] != float64(len(results)) || out["cursor"] != nil {
			t.Fatalf("cairn_search launch: %v", out)
		}
		first := results[0].(map[string]any)
		for _, k := range []string{"path", "title", "snippet", "tags", "modified"} {
			if _, ok := first[k]; !ok {
				t.Errorf("a result lacks %s: %v", k, first)
			}
		}
		if s, _ := first["snippet"].(string); !strings.Contains(strings.ToLower(s), "launch") || strings.ContainsAny(s, "«»") {
			t.Errorf("snippet %q", s)
		}
		page := cairnJSON(t, c, "cairn_search", map[string]any{"query": "launch", "limit": 1})
		if len(page["results"].([]any)) != 1 || page["cursor"] == nil {
			t.Fatalf("limit 1: %v", page)
		}
		next := cairnJSON(t, c, "cairn_search", map[string]any{"query": "launch", "limit": 1, "cursor": page["cursor"]})
		if next["results"].([]any)[0].(map[string]any)["path"] == page["results"].([]any)[0].(map[string]any)["path"] {
			t.Errorf("the cursor gave the same page: %v", next)
		}
		paths := func(out map[string]any) []string {
			var ps []string
			for _, r := range out["results"].([]any) {
				ps = append(ps, r.(map[string]any)["path"].(string))
			}
			return ps
		}
		if got := paths(cairnJSON(t, c, "cairn_search", map[string]any{"tags": []string{"co-founder", "ceo"}})); !reflect.DeepEqual(got, []string{"entities/person/jamie"}) {
			t.Errorf("tags: %v", got)
		}
		if got := paths(cairnJSON(t, c, "cairn_search", map[string]any{"path_prefix": "entities/company"})); !reflect.DeepEqual(got, []string{"entities/company/brainwaves"}) {
			t.Errorf("path_prefix: %v", got)
		}
		got := paths(cairnJSON(t, c, "cairn_search", map[string]any{"backlinks_to": "entities/company/brainwaves"}))
		if !reflect.DeepEqual(got, []string{"projects/brainwaves-v2"}) {
			t.Errorf("backlinks_to: %v", got)
		}
		if got := paths(cairnJSON(t, c, "cairn_search", map[string]any{"modified_since": "2999-01-01"})); len(got) != 0 {
			t.Errorf("modified_since in the future: %v", got)
		}
	})

	t.Run("cairn_links", func(t *testing.T) {
		out := cairnJSON(t, c, "cairn_links", map[string]any{"path": "projects/brainwaves-v2"})
		if out["path"] != "projects/brainwaves-v2" || len(out["incoming"].([]any)) != 0 || len(out["outgoing"].([]any)) != 2 {
			t.Errorf("cairn_links: %v", out)
		}
		in := cairnJSON(t, c, "cairn_links", map[string]any{"path": "entities/company/brainwaves", "direction": "in"})
		if _, ok := in["outgoing"]; ok {
			t.Errorf("direction in gave outgoing links: %v", in)
		}
		inc := in["incoming"].([]any)
		if len(inc) != 1 || inc[0].(map[string]any)["title"] != "Brainwaves V2" || !strings.Contains(inc[0].(map[string]any)["context"].(string), "[[entities/company/brainwaves]]") {
			t.Errorf("incoming: %v", inc)
		}
		deep := cairnJSON(t, c, "cairn_links", map[string]any{"path": "entities/company/brainwaves", "direction": "in", "depth": 2})
		if len(deep["incoming"].([]any)) < 1 {
			t.Errorf("depth 2: %v", deep)
		}
	})

	t.Run("cairn_daily", func(t *testing.T) {
		before := headOf(t, dir)
		text := c.call(t, "cairn_daily", map[string]any{"op": "read", "date": "2026-03-01"}).text()
		if !strings.Contains(text, "title: \"2026-03-01\"") && !strings.Contains(text, "title: 2026-03-01") || !strings.Contains(text, "type: daily") {
			t.Errorf("cairn_daily read of a new day:\n%s", text)
		}
		oneCommit(t, dir, before, "cairn_daily")
		if got := gittest.Git(t, dir, "show", "HEAD:daily/2026-03-01.md"); got != "---\ntitle: 2026-03-01\ntype: daily\ntags: [daily]\n---\n" {
			t.Errorf("the new daily note:\n%q", got)
		}
		before = headOf(t, dir)
		out := cairnJSON(t, c, "cairn_daily", map[string]any{"op": "append", "date": "2026-03-01", "content": "Shipped."})
		if out["path"] != "daily/2026-03-01" || out["bytes_added"] == 0.0 {
			t.Errorf("cairn_daily append: %v", out)
		}
		oneCommit(t, dir, before, "cairn_daily")
		// A new day's note and the append are one commit.
		before = headOf(t, dir)
		cairnJSON(t, c, "cairn_daily", map[string]any{"op": "append", "date": "2026-03-02", "content": "Planned."})
		oneCommit(t, dir, before, "cairn_daily")
		// A section op on a new day fails, and makes no note.
		cairnError(t, c, "cairn_daily", map[string]any{"op": "append_section", "date": "2026-03-03", "section": "Meetings", "content": "x"}, "NOT_FOUND")
		cairnError(t, c, "cairn_daily", map[string]any{"op": "replace", "content": "x"}, "INVALID_PARAMS")
		cairnError(t, c, "cairn_daily", map[string]any{"op": "read", "date": "March 3"}, "INVALID_PARAMS")
		if _, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:daily/2026-03-03.md"); err == nil {
			t.Error("a failed daily op left a note")
		}
	})

	t.Run("cairn_list", func(t *testing.T) {
		out := cairnJSON(t, c, "cairn_list", map[string]any{"path_prefix": "entities/person", "sort": "alpha"})
		notes := out["notes"].([]any)
		if out["path_prefix"] != "entities/person" || len(notes) != 3 || out["total"] != 3.0 {
			t.Fatalf("cairn_list: %v", out)
		}
		first := notes[0].(map[string]any)
		if first["path"] != "entities/person/ada" || notes[1].(map[string]any)["type"] != "person" || notes[1].(map[string]any)["modified"] == nil {
			t.Errorf("cairn_list entries: %v", notes)
		}
		top := cairnJSON(t, c, "cairn_list", map[string]any{})
		for _, n := range top["notes"].([]any) {
			if strings.Contains(n.(map[string]any)["path"].(string), "/") {
				t.Errorf("not recursive by default, yet lists %v", n)
			}
		}
		all := cairnJSON(t, c, "cairn_list", map[string]any{"recursive": true, "limit": 2})
		if len(all["notes"].([]any)) != 2 || all["cursor"] == nil || all["total"].(float64) < 8 {
			t.Errorf("recursive, limit 2: %v", all)
		}
	})

	t.Run("cairn_delete", func(t *testing.T) {
		before := headOf(t, dir)
		out := cairnJSON(t, c, "cairn_delete", map[string]any{"path": "entities/company/brainwaves"})
		if out["deleted"] != "entities/company/brainwaves" {
			t.Errorf("cairn_delete: %v", out)
		}
		oneCommit(t, dir, before, "cairn_delete")
		if got := gittest.Git(t, dir, "show", "HEAD:projects/brainwaves-v2.md"); !strings.Contains(got, "[[entities/company/brainwaves]]") {
			t.Errorf("cairn_delete changed a note that links to it:\n%s", got)
		}
		cairnError(t, c, "cairn_delete", map[string]any{"path": "entities/company/brainwaves"}, "NOT_FOUND")
	})
}

// TestDaemon_TwoProfiles has one daemon serve the cairn profile over HTTP
// at /mcp/cairn and wikid's own over stdio, to two clients at once: what
// one writes, the other reads at once.
func TestDaemon_TwoProfiles(t *testing.T) {
	t.Parallel()
	requireNode(t)
	dir := cairnRepo(t)
	env := sharedEnv(t, dir)
	const token = "profiles-test"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	bridge := startBridge(t)
	cairn := connectTS(t, bridge, httpRequest(p.url+"/cairn", token))
	cairn.plain = true
	checkSeedTools(t, cairn, "cairn")
	req := stdioRequest(wikidBin, "--repo", dir)
	req["env"] = envMap(env)
	own := connectTS(t, bridge, req)
	own.listTools(t)
	if _, ok := own.tools["read_note"]; !ok || len(own.tools) < 20 {
		t.Fatalf("the stdio client of the same daemon lists %d tools, not wikid's", len(own.tools))
	}

	cairnJSON(t, cairn, "cairn_write", map[string]any{"path": "inbox/from-cairn", "content": "# From Cairn\n\nzqcairnword\n"})
	read, _ := tsOK[wiki.ReadResult](t, own, "read_note", map[string]any{"path": "inbox/from-cairn"})
	if !strings.Contains(read.Content, "zqcairnword") {
		t.Errorf("read_note after cairn_write: %q", read.Content)
	}
	tsOK[wiki.Result](t, own, "write_note", map[string]any{"path": "inbox/from-wikid", "content": "# From wikid\n\nzqwikidword\n"})
	if text := cairn.call(t, "cairn_read", map[string]any{"path": "inbox/from-wikid"}).text(); !strings.Contains(text, "zqwikidword") {
		t.Errorf("cairn_read after write_note: %q", text)
	}
	out := cairnJSON(t, cairn, "cairn_search", map[string]any{"query": "zqwikidword"})
	if out["total"] != 1.0 {
		t.Errorf("cairn_search after write_note: %v", out)
	}
	if st := daemonStatus(t, env, dir); int(st["pid"].(float64)) != p.cmd.Process.Pid {
		t.Errorf("the stdio client went to pid %v, not the HTTP daemon %d", st["pid"], p.cmd.Process.Pid)
	}
	// An unknown profile is refused with the list of those there are.
	resp, err := http.Get(p.url + "/nosuch")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "cairn") {
		t.Errorf("GET /mcp/nosuch: %d %s", resp.StatusCode, body)
	}
}
