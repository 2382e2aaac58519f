package e2e_test

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/gittest"
)

// indexedBenchRepo generates a wiki of 10,000 notes and 2,000 commits (the
// performance budget's size), builds its indexes with wikid reindex, and
// returns it and its note files.
func indexedBenchRepo(b *testing.B) (dir string, files []string) {
	b.Helper()
	dir = b.TempDir()
	gittest.Generate(b, dir, 10000, 2000)
	reindex := exec.Command(wikidBin, "reindex", "--repo", dir)
	reindex.Env = serveEnv()
	if out, err := reindex.CombinedOutput(); err != nil {
		b.Fatalf("wikid reindex: %v\n%s", err, out)
	}
	return dir, strings.Fields(gittest.Git(b, dir, "ls-files", "*.md"))
}

// benchCall calls a tool b.N times, failing on an error result.
func benchCall(b *testing.B, s *session, name string, args func(i int) map[string]any) {
	b.Helper()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var req mcp.CallToolRequest
		req.Params.Name = name
		req.Params.Arguments = args(i)
		res, err := s.C.CallTool(ctx, req)
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", name, err, res)
		}
	}
}

// BenchmarkServer measures tool calls end to end through MCP over HTTP:
// client encoding, the HTTP round trip, argument checks, the wiki and the
// rendering of the result.
func BenchmarkServer(b *testing.B) {
	s, notePath := benchSession(b)
	b.Run("read_note", func(b *testing.B) {
		benchCall(b, s, "read_note", func(int) map[string]any { return map[string]any{"path": notePath} })
	})
	b.Run("search_notes", func(b *testing.B) {
		benchCall(b, s, "search_notes", func(int) map[string]any {
			return map[string]any{"query": "note tag:project", "limit": 10}
		})
	})
	b.Run("list_notes", func(b *testing.B) {
		benchCall(b, s, "list_notes", func(int) map[string]any { return map[string]any{} })
	})
	b.Run("edit_note", func(b *testing.B) {
		benchCall(b, s, "edit_note", func(i int) map[string]any {
			return map[string]any{"path": notePath, "edits": []any{map[string]any{"op": "append", "content": fmt.Sprintf("line %d", i)}}}
		})
	})
	b.Run("wiki_status", func(b *testing.B) {
		benchCall(b, s, "wiki_status", func(int) map[string]any { return nil })
	})
}
