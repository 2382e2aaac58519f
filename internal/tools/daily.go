package tools

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

type dailyArgs struct {
	Date    string `json:"date"`
	Op      string `json:"op"`
	Content string `json:"content"`
	Section string `json:"section"`
	mutationArgs
}

// dailyOutput is wiki.DailyResult with the commit and version of a write
// at the top.
type dailyOutput struct {
	*wiki.DailyResult
	Commit  string `json:"commit,omitempty"`
	Version string `json:"version,omitempty"`
}

func dailyNoteTool() *tool.Tool {
	in := tool.Object("", mutationProps(
		tool.Opt("date", tool.Str("")),
		tool.Opt("op", tool.Enum("read, or as in edit_note.",
			"read", note.OpAppend, note.OpPrepend, note.OpAppendSection, note.OpPrependSection).Def("read")),
		tool.Opt("content", tool.Text("")),
		tool.Opt("section", tool.Str("")),
	)...)
	return &tool.Tool{
		Name: "daily_note", Group: tool.GroupNotes, Mutating: true, Title: "Read or add to a daily note",
		Description: "Read or add to the daily note of date (default today), made from the template on first write. Use " +
			"edit_note for other edits.",
		Input: in,
		Output: tool.Object("The daily note, or the outcome of the write.",
			tool.Req("path", tool.Str("The daily note's path.")),
			tool.Req("date", tool.Str("The day, YYYY-MM-DD.")),
			tool.Req("created", tool.Boolean("Set when this write created the note.")),
			tool.Opt("commit", tool.Str("The new commit of a write.")),
			tool.Opt("version", tool.Str("The note's version after a write.")),
			tool.Opt("note", readResultSchema("The note, for op read.").Without("backlinks")),
			tool.Opt("result", tool.Object("The outcome of a write.", mutationResultProps()...).Without("metadata", "links_updated", "broken_links")),
		),
		Reads: DailyReads,
		Run:   tool.Bind(in, runDaily),
	}
}

// DailyReads reports whether daily_note arguments ask for op read (the
// default). Arguments that do not decode count as a read: the tool itself
// then refuses them with INVALID_PARAMS, and nothing is written.
func DailyReads(raw []byte) bool {
	var a struct {
		Op any `json:"op"`
	}
	if len(bytes.TrimSpace(raw)) == 0 || json.Unmarshal(raw, &a) != nil {
		return true
	}
	return a.Op == nil || a.Op == "read"
}

func runDaily(ctx context.Context, s *tool.Env, a *dailyArgs) (any, string, error) {
	read := a.Op == "" || a.Op == "read"
	switch {
	case read && (a.Content != "" || a.Section != ""):
		return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "content and section are for the writing ops, not read").
			WithHint("set op to append, prepend, append_section or prepend_section to add content")
	case !read && a.Content == "":
		return nil, "", tool.ArgError("content", "is required for op %s", a.Op)
	}
	if read && (a.ExpectedVersion != "" || a.DryRun || a.Message != "") {
		return nil, "", wiki.Errorf(wiki.CodeInvalidParams, "expected_version, dry_run and message are for the writing ops, not read").
			WithHint("leave them out to read, or set op to append, prepend, append_section or prepend_section")
	}
	res, err := s.Wiki.Daily(ctx, wiki.DailyRequest{Date: a.Date, Op: a.Op, Content: a.Content, Section: a.Section,
		Mutation: a.mutation(s.Caller)})
	if err != nil {
		return nil, "", err
	}
	out := &dailyOutput{DailyResult: res}
	if res.Note != nil {
		read := *res
		read.Note = wireRead(res.Note)
		out.DailyResult = &read
		return out, render.Read(res.Note, false), nil
	}
	out.Commit = res.Result.Commit
	if len(res.Result.Changes) == 1 {
		out.Version = res.Result.Changes[0].Version
	}
	headline := "Added to the daily note " + res.Path
	if res.Created {
		headline = "Created the daily note " + res.Path + " from the template and added to it"
	}
	return out, render.Mutation(headline, res.Result), nil
}
