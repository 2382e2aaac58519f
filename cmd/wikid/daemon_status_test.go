package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/wiki"
)

// TestPrintDaemonStatus_semantic counts only the notes the model reads as
// embedded or not: a vault of many languages is not "mostly embedded"
// because the model skipped what it cannot read.
func TestPrintDaemonStatus_semantic(t *testing.T) {
	var out bytes.Buffer
	printDaemonStatus(&out, &daemon.Status{Semantic: &wiki.SemanticState{
		Model: "builtin/bge", Provider: "built in", Notes: 6280, Unread: 5537, Unembedded: 604,
	}})
	want := "semantic    builtin/bge (built in), 139 of 743 notes embedded; 5537 the model cannot read, found by text only\n"
	if got := out.String(); !strings.Contains(got, want) {
		t.Errorf("status:\n%s\nwant the line\n%s", got, want)
	}
}
