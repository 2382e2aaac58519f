package tools_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// TestServer_SyncWiki syncs through the tool: a change pushed from another
// clone arrives, a change made through the server leaves, and wiki_status
// tells the upstream and that nothing is left to push or integrate.
func TestServer_SyncWiki(t *testing.T) {
	dir := toolstest.FixtureRepo(t)
	bare := gittest.InitBare(t)
	gittest.Git(t, dir, "remote", "add", "origin", bare)
	gittest.Git(t, dir, "push", "-q", "-u", "origin", "HEAD:main")
	other := filepath.Join(t.TempDir(), "other")
	gittest.Git(t, filepath.Dir(other), "clone", "-q", "-b", "main", bare, other)
	gittest.Commit(t, other, "from the laptop", map[string]string{"laptop.md": "# Laptop\n"})
	gittest.Git(t, other, "push", "-q", "origin", "HEAD:main")

	w := toolstest.OpenWiki(t, dir, nil)
	opts := mcpserver.Options{Sync: gitsync.New(w, gitsync.Options{Dir: dir})}
	w.SetSyncReporter(opts.Sync) // as wikid serve does
	s := toolstest.NewSession(t, toolstest.ConnectHTTP(t, toolstest.ServeHTTP(t, w, opts, mcpserver.HTTPOptions{}), nil, ""))
	toolstest.OK[wiki.Result](s, "write_note", map[string]any{"path": "here", "content": "# Here\n"})
	type result struct {
		Upstream, Integrated, Commit string
		Pushed                       bool
	}
	res, txt := toolstest.OK[result](s, "sync_wiki", map[string]any{})
	if res.Upstream != "origin/main" || res.Integrated != wiki.IntegratedMerge || !res.Pushed || !strings.Contains(txt, "pushed") {
		t.Fatalf("%+v\n%s", res, txt)
	}
	if got := strings.TrimSpace(gittest.Git(t, bare, "rev-parse", "main")); got != res.Commit {
		t.Errorf("the remote is at %s, the result says %s", got, res.Commit)
	}
	gittest.Git(t, bare, "cat-file", "-e", "main:here.md")
	gittest.Git(t, dir, "cat-file", "-e", "HEAD:laptop.md")

	st, _ := toolstest.OK[wiki.Status](s, "wiki_status", nil)
	if !st.Sync.Configured || st.Sync.Upstream != "origin/main" || st.Sync.Ahead != 0 || st.Sync.Behind != 0 {
		t.Errorf("sync status %+v", st.Sync)
	}
}
