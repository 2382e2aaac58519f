package mcpserver

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// errMissingArgument is returned when a prompt is asked for without an
// argument it requires.
var errMissingArgument = errors.New("missing argument")

// errUnknownPrompt is returned when a completion names a prompt the server
// does not have.
var errUnknownPrompt = errors.New("unknown prompt")

// errUnknownTemplate is returned when a completion names a resource
// template the server does not have.
var errUnknownTemplate = errors.New("unknown resource template")

// errorShape is the structured content of a failed call.
type errorShape struct {
	Error map[string]any `json:"error"`
}

// errorResult turns an error into a tool result with isError set: the text
// "CODE: message. Hint: what to do next" and the structured content
// {"error": {"code", "message", "hint", ...details}}. Errors that carry no
// contract code are INTERNAL: their details go to the log, not the client.
func (s *Server) errorResult(ctx context.Context, tool string, err error) *mcp.CallToolResult {
	var e *wiki.Error
	switch {
	case errors.As(err, &e) && e.Code != wiki.CodeInternal:
	case errors.Is(err, wiki.ErrDetached):
		e = wiki.Errorf(wiki.CodeReadOnly, "HEAD is detached, so the wiki cannot be changed").
			WithHint("check out a branch in the repository, then retry")
	case ctx.Err() != nil:
		e = wiki.Errorf(wiki.CodeInternal, "the request was cancelled before it finished").
			WithHint("retry; a mutation that did not finish made no commit")
	default:
		s.log.ErrorContext(ctx, "tool failed", "tool", tool, "err", err)
		e = wiki.Errorf(wiki.CodeInternal, "%s failed on the server", tool).
			WithHint("retry; if it keeps failing, the wikid log has the details")
	}
	return errorToolResultIn(e, s.prof.Words)
}

// errorToolResultIn renders a contract error in the words of a profile.
func errorToolResultIn(e *wiki.Error, words wiki.Words) *mcp.CallToolResult {
	fields := map[string]any{}
	for k, v := range e.Details {
		fields[k] = v
	}
	if e.Line > 0 {
		fields["line"] = e.Line
	}
	hint := words.Say(e.Hint)
	if strings.TrimSpace(hint) == "" {
		hint = words.Say(wiki.Sayf(defaultHints[e.Code]))
	}
	msg := words.Say(e.Message)
	fields["code"] = string(e.Code)
	fields["message"] = msg
	fields["hint"] = hint
	text := string(e.Code) + ": " + render.Sentence(msg) + " Hint: " + render.Sentence(hint)
	res := &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(text)},
		StructuredContent: errorShape{Error: fields},
		IsError:           true,
	}
	if raw, err := tool.EncodeStructured(res.StructuredContent, errorResultSchema, words); err == nil {
		res.RawStructuredContent = raw
	}
	return res
}

// errorResultSchema is the shape of a failed call's structured content.
var errorResultSchema = tool.Object("", tool.Req("error", errorSchema()))

// defaultHints are the hints of errors that come without one: what to do
// next about any error of the code, with references ({search}) that each
// profile words as its tools are named. Every code of the contract has one.
var defaultHints = map[wiki.Code]string{
	wiki.CodeInvalidParams: "correct the arguments as the tool's input schema and description say, then call again",
	wiki.CodeInvalidPath:   "give a relative note path such as projects/alpha/plan: no leading /, no .. or empty segments, nothing under .git",
	wiki.CodeInvalidQuery:  "fix the query; the {search} description lists the query language",
	wiki.CodeNotFound:      "check the name with {list}, {search} or {resolve}",
	wiki.CodeAlreadyExists: "choose another path, or {overwrite} to replace the note",
	wiki.CodeConflict:      "read the note again and retry with its current version as {expected_version}",
	wiki.CodeAmbiguous:     "say which one you mean: a longer find text, a Parent/Child section, or more hex digits",
	wiki.CodeLinkIntegrity: "update the links first, or let the tool update them",
	wiki.CodeLocalChanges:  "commit or discard the uncommitted changes in the checkout, then retry",
	wiki.CodeLocked:        "wait for the git command holding the lock to finish; if none is running, remove the lock file the message names",
	wiki.CodeReadOnly:      "use the read tools; this wiki cannot be changed here",
	wiki.CodeTooLarge:      "send less: split the content, or read in parts with offset and max_chars",
	wiki.CodeInternal:      "retry; if it keeps failing, the wikid log has the details",
	wiki.CodeUnavailable:   "retry later; {status} shows the embeddings endpoint's last error",
	wiki.CodeOtherBranch:   "the person has another branch checked out; retry once the wiki's branch is checked out again",
	wiki.CodeNoSpace:       "free space on the disk that holds the wiki, then retry",
}

// readOnlyError is what a mutating tool answers on a read-only server:
// read-only because the repository's files cannot be written (unwritable
// says why), or because it was served with --read-only.
func readOnlyError(tool, unwritable string) *wiki.Error {
	if unwritable != "" {
		return wiki.Errorf(wiki.CodeReadOnly, "%s changes the wiki, and the repository's files cannot be written: %s", tool, unwritable).
			WithHint(wiki.UnwritableHint)
	}
	return wiki.Errorf(wiki.CodeReadOnly, "%s changes the wiki, and this server is read-only", tool).
		WithHint("use the read tools, or restart wikid serve without --read-only")
}
