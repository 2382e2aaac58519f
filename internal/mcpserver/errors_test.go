package mcpserver

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/profiles/roux"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

func TestErrorToolResult(t *testing.T) {
	t.Run("every code has a default hint", func(t *testing.T) {
		for _, code := range errorCodes {
			if strings.TrimSpace(defaultHints[wiki.Code(code)]) == "" {
				t.Errorf("%s has no default hint", code)
			}
		}
		if len(defaultHints) != len(errorCodes) {
			t.Errorf("%d default hints for %d codes", len(defaultHints), len(errorCodes))
		}
	})
	t.Run("an error without a hint gets its code's", func(t *testing.T) {
		for _, code := range errorCodes {
			res := errorToolResultIn(wiki.Errorf(wiki.Code(code), "it broke"), wikidWords)
			hint, _ := res.StructuredContent.(errorShape).Error["hint"].(string)
			if hint == "" || hint != wikidWords.Say(wiki.Sayf(defaultHints[wiki.Code(code)])) || strings.ContainsAny(hint, "{}\x02\x03") {
				t.Errorf("%s: hint %q", code, hint)
			}
			txt := res.Content[0].(mcp.TextContent).Text
			if want := code + ": it broke. Hint: " + render.Sentence(hint); txt != want {
				t.Errorf("text %q, want %q", txt, want)
			}
		}
	})
	t.Run("a list of details is never null", func(t *testing.T) {
		e := wiki.Errorf(wiki.CodeNotFound, "no section %q", "x")
		e.Details = map[string]any{"headings": []string(nil)}
		res := errorToolResultIn(e, wikidWords)
		if got := string(res.RawStructuredContent); !strings.Contains(got, `"headings":[]`) {
			t.Errorf("structured content %s", got)
		}
	})
	t.Run("a hint of its own is kept", func(t *testing.T) {
		res := errorToolResultIn(wiki.Errorf(wiki.CodeNotFound, "no note %q", "x").WithHint("create it"), wikidWords)
		if hint := res.StructuredContent.(errorShape).Error["hint"]; hint != "create it" {
			t.Errorf("hint %q", hint)
		}
	})
}

// wikidWords are wikid's own tools' words.
var wikidWords = tools.Profile().Words

// TestErrorToolResult_ProfileWords checks that the default hints name a
// profile's own tools: Roux's client has no list_notes.
func TestErrorToolResult_ProfileWords(t *testing.T) {
	words := roux.Profile().Words
	for _, code := range []wiki.Code{wiki.CodeNotFound, wiki.CodeInvalidQuery, wiki.CodeUnavailable} {
		res := errorToolResultIn(wiki.Errorf(code, "it broke"), words)
		hint, _ := res.StructuredContent.(errorShape).Error["hint"].(string)
		if strings.Contains(hint, "_notes") || strings.Contains(hint, "wiki_status") {
			t.Errorf("%s: Roux's hint names wikid's tools: %q", code, hint)
		}
	}
}
