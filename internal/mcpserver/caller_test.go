package mcpserver

import (
	"context"
	"testing"
)

func TestSlug(t *testing.T) {
	tests := map[string]string{
		"claude-code":          "claude-code",
		"Claude Desktop":       "claude-desktop",
		"my_client.v2":         "my_client.v2",
		"Ünïcode Client!":      "n-code-client",
		"   ":                  "client",
		"--x--":                "x",
		"a<b>c":                "a-b-c",
		"cursor (vscode fork)": "cursor-vscode-fork",
	}
	for in, want := range tests {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
	if got := cleanName("evil\nName <x@y>"); got != "evil Name x@y" {
		t.Errorf("cleanName = %q", got)
	}
}

// TestServer_caller: the caller of a tool call names the tool, for the
// Wiki-Tool trailer, and the client it came from.
func TestServer_caller(t *testing.T) {
	c := (&Server{}).caller(context.Background(), "edit_note")
	if c.Tool != "edit_note" || c.Client != unknownClient || c.Author.Email != unknownClient+"@"+authorDomain {
		t.Errorf("caller %+v", c)
	}
}
