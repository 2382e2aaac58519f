package web_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/web"
	"github.com/wikid/wikid/internal/wiki"
)

// bigProposal makes a repository of one note and, with git fast-import,
// an open proposal that adds n notes in one commit, as a session's batch
// would: n tree entries of one blob, so that 100,000 notes take a second
// to make. It returns the directory and the proposal's id.
func bigProposal(tb testing.TB, n int) (string, string) {
	tb.Helper()
	dir := gittest.Init(tb)
	head := gittest.Commit(tb, dir, "start", map[string]string{"index.md": "# Index\n"})
	id := fmt.Sprintf("bench-20260101-000000-%04x", n%0xffff)
	var in bytes.Buffer
	blob := "# Note\n\nline one\nline 2\nline three\n"
	fmt.Fprintf(&in, "blob\nmark :1\ndata %d\n%s\n", len(blob), blob)
	msg := fmt.Sprintf("batch: %d notes\n\nWiki-Tool: batch\nWiki-Client: bench/1\nWiki-Base: %s\nWiki-Proposal: %s\n", n, head, id)
	when := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	fmt.Fprintf(&in, "commit %s%s\nauthor bench <bench@mcp.wikid> %d +0000\ncommitter bench <bench@mcp.wikid> %d +0000\ndata %d\n%s\nfrom %s\n",
		wiki.ProposalsRef, id, when, when, len(msg), msg, head)
	for i := range n {
		fmt.Fprintf(&in, "M 100644 :1 n/%03d/%06d.md\n", i/1000, i)
	}
	in.WriteString("\n")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = dir, &in
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("git fast-import: %v\n%s", err, out)
	}
	return dir, id
}

// TestProposalPages_100kNotes opens the proposals list and the page of a
// proposal of 100,000 notes: the list counts its notes without their
// lines, and the page shows one page of them, merged and diffed, and says
// how many there are.
func TestProposalPages_100kNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("makes a proposal of 100,000 notes")
	}
	dir, id := bigProposal(t, 100_000)
	h := web.New(openWiki(t, dir), web.Options{Reviewer: wiki.Identity{Name: "Pat", Email: "pat@example.com"}})
	get := func(path string) string {
		t.Helper()
		start := time.Now()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d\n%s", path, rec.Code, rec.Body)
		}
		t.Logf("%s: %v, %d bytes", path, time.Since(start), rec.Body.Len())
		return rec.Body.String()
	}
	list := get("/proposals")
	if !strings.Contains(list, id) || !strings.Contains(list, "100000 open") {
		t.Errorf("the list does not show the proposal and its notes:\n%s", list)
	}
	page := get("/proposals/" + id)
	if notes := strings.Count(page, `value="accept::n/`); notes == 0 || notes > 100 {
		t.Errorf("the page offers %d notes to accept, want one page of them", notes)
	}
	if !strings.Contains(page, "100000 files open") {
		t.Errorf("the page does not say how many notes the proposal has:\n%s", page)
	}
	get("/proposals/" + id)
	get("/proposals")
}

// BenchmarkProposalPage_big opens the proposals list and a proposal's page
// for a proposal of 100 and of 100,000 notes made with git fast-import:
// both read one page of notes, so they take about as long once the
// proposal's commits were read. first-ms is the first view, which reads
// the proposal's tree changes once per tip; ns/op the views after it.
func BenchmarkProposalPage_big(b *testing.B) {
	for _, n := range []int{100, 100_000} {
		dir, id := bigProposal(b, n)
		h := web.New(openWiki(b, dir), web.Options{Reviewer: wiki.Identity{Name: "Pat", Email: "pat@example.com"}})
		for _, path := range []string{"/proposals", "/proposals/" + id} {
			name := "list"
			if path != "/proposals" {
				name = "proposal"
			}
			b.Run(fmt.Sprintf("%s/notes=%d", name, n), func(b *testing.B) {
				get := func() {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
					if rec.Code != http.StatusOK {
						b.Fatalf("%s: %d", path, rec.Code)
					}
				}
				start := time.Now()
				get()
				first := time.Since(start)
				for b.Loop() {
					get()
				}
				b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
			})
		}
	}
}
