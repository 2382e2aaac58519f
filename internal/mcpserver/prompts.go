package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/wikid/wikid/internal/render"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Limits of what a prompt embeds.
const (
	reviewCommits = 10   // commits whose diffs a review embeds
	answerBudget  = 4000 // tokens of sections an answer gathers
	brokenLimit   = 100  // broken links a fix lists
)

// prompt is one of wikid's prompts: its definition and what it renders.
type prompt struct {
	def mcp.Prompt
	// groups are the tool groups the prompt reads and asks the model to
	// use: it is served with all of them only.
	groups []string
	// writes is set for a prompt that asks the model to change notes: a
	// read-only server leaves it out.
	writes bool
	render func(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error)
}

// prompts are wikid's prompts, for the things people do with a wiki and
// an assistant. Each embeds the resources it needs, so that the model
// starts with them rather than with calls to make.
func (s *Server) prompts() []prompt {
	arg := func(name, desc string, required bool) mcp.PromptOption {
		opts := []mcp.ArgumentOption{mcp.ArgumentDescription(desc)}
		if required {
			opts = append(opts, mcp.RequiredArgument())
		}
		return mcp.WithArgument(name, opts...)
	}
	return []prompt{
		{mcp.NewPrompt("review_changes",
			mcp.WithPromptTitle("Review changes"),
			mcp.WithPromptDescription("Review what assistants changed in the wiki since a day: the activity log and each commit's diff, embedded."),
			arg("since", "The first day to review, YYYY-MM-DD; default yesterday.", false),
		), []string{tool.GroupHistory}, false, s.reviewChanges},
		{mcp.NewPrompt("summarize_history",
			mcp.WithPromptTitle("Summarize a note's history"),
			mcp.WithPromptDescription("Summarize how a note came to be what it is: the note, its commits and the diffs of its latest changes, embedded."),
			arg("path", "The note path, e.g. projects/alpha/plan.", true),
		), []string{tool.GroupHistory, tool.GroupNotes}, false, s.summarizeHistory},
		{mcp.NewPrompt("fix_broken_links",
			mcp.WithPromptTitle("Fix broken links"),
			mcp.WithPromptDescription("Find and fix the links that resolve to no note: the broken links with their lines, embedded."),
			arg("folder", "Only the notes under this folder; default the whole wiki.", false),
		), []string{tool.GroupLinks, tool.GroupNotes, tool.GroupSearch}, true, s.fixBrokenLinks},
		{mcp.NewPrompt("write_daily_note",
			mcp.WithPromptTitle("Write the daily note"),
			mcp.WithPromptDescription("Write a day's daily note from what changed in the wiki that day: the day's commits and the daily note so far, embedded."),
			arg("date", "The day, YYYY-MM-DD; default today.", false),
		), []string{tool.GroupHistory, tool.GroupNotes}, true, s.writeDailyNote},
		{mcp.NewPrompt("answer_question",
			mcp.WithPromptTitle("Answer from the notes"),
			mcp.WithPromptDescription("Answer a question from the notes, citing them: the sections that answer it best, gathered within a budget, embedded."),
			arg("question", "The question, in words.", true),
			arg("folder", "Only the notes under this folder; default the whole wiki.", false),
		), []string{tool.GroupSearch, tool.GroupNotes}, false, s.answerQuestion},
	}
}

// addPrompts registers the prompts whose tool groups are served, those
// that change notes only on a server that may.
func (s *Server) addPrompts() {
	for _, p := range s.prompts() {
		if !all(p.groups, s.groupEnabled) || p.writes && s.opts.ReadOnly {
			continue
		}
		s.mcp.AddPrompt(p.def, func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			for _, a := range p.def.Arguments {
				if a.Required && strings.TrimSpace(req.Params.Arguments[a.Name]) == "" {
					return nil, invalidParams(ctx, fmt.Errorf("%w: %s needs %s", errMissingArgument, p.def.Name, a.Name))
				}
			}
			msgs, err := p.render(ctx, req.Params.Arguments)
			if err != nil {
				return nil, s.promptError(ctx, "prompt "+p.def.Name, err)
			}
			return &mcp.GetPromptResult{Description: p.def.Description, Messages: msgs}, nil
		})
	}
}

// argumentNames lists a prompt's arguments, for an error: "none" when it
// has none.
func argumentNames(p mcp.Prompt) string {
	if len(p.Arguments) == 0 {
		return "none"
	}
	names := make([]string, len(p.Arguments))
	for i, a := range p.Arguments {
		names[i] = a.Name
	}
	return strings.Join(names, ", ")
}

// say is a user message of text.
func say(format string, args ...any) mcp.PromptMessage {
	return mcp.PromptMessage{Role: mcp.RoleUser, Content: mcp.NewTextContent(fmt.Sprintf(format, args...))}
}

// embed is a user message that embeds a resource's text.
func embed(uri, mime, text string) mcp.PromptMessage {
	return mcp.PromptMessage{Role: mcp.RoleUser, Content: mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: text})}
}

func (s *Server) reviewChanges(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error) {
	since := args["since"]
	if since == "" {
		since = s.w.Options().Now().In(s.w.Options().Location).AddDate(0, 0, -1).Format("2006-01-02")
	}
	activity, err := s.activitySince(ctx, since)
	if err != nil {
		return nil, err
	}
	msgs := []mcp.PromptMessage{
		say("Review the changes made to this wiki since %s. The wiki's commits follow, then each commit's diff. "+
			"For each commit made by an assistant (it names a tool and a client), say in a line or two what it changed and whether "+
			"it looks right: lost or garbled content, wrong facts, broken links or formatting, a change nobody asked for. "+
			"End with the commits to undo, if any; revert_change undoes one as a new commit, after a dry_run. "+
			"Commits made by people are context: do not judge them.", since),
		embed(activityURIPrefix+since, "text/plain", fmt.Sprintf("Commits since %s:\n", since)+s.prof.Words.Say(render.Activity(activity))),
	}
	for _, c := range activity.Commits[:min(reviewCommits, len(activity.Commits))] {
		text, err := s.commitText(ctx, c.Commit)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, embed(commitURIPrefix+c.Short, "text/plain", text))
	}
	if more := activity.Total - min(reviewCommits, len(activity.Commits)); more > 0 {
		msgs = append(msgs, say("%d older commits are left out; read wiki://commit/<id> for the diff of one.", more))
	}
	return msgs, nil
}

func (s *Server) summarizeHistory(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error) {
	p := args["path"]
	history, err := s.historyText(ctx, p)
	if err != nil {
		return nil, err
	}
	msgs := []mcp.PromptMessage{
		say("Summarize the history of the note %s: how it began, how it grew, who changed it and why, and what changed lately. "+
			"Name commits by their short ids. The note as it is now, its commits and the diffs of its latest changes follow.", p),
	}
	r, err := s.w.Read(ctx, wiki.ReadRequest{Path: p, MaxChars: int(s.w.Options().MaxNoteSize)})
	switch {
	case err == nil:
		msgs = append(msgs, embed(noteURI(r.Path), "text/markdown", r.Content))
	case errors.Is(err, wiki.ErrNotFound):
		msgs = append(msgs, say("The note no longer exists; its history says when it was deleted."))
	default:
		return nil, err
	}
	return append(msgs, embed(historyURIPrefix+escapePath(p), "text/plain", history)), nil
}

func (s *Server) fixBrokenLinks(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error) {
	res, err := s.w.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: args["folder"], Limit: brokenLimit})
	if err != nil {
		return nil, err
	}
	where := "the wiki"
	if f := args["folder"]; f != "" {
		where = "the notes under " + f
	}
	if res.Total == 0 {
		return []mcp.PromptMessage{say("%s has no broken links: there is nothing to fix. Say so.", where)}, nil
	}
	return []mcp.PromptMessage{
		say("Fix the broken links of %s, listed below with their lines. For each, find the note it meant "+
			"(resolve_notes with strategy fuzzy, or search_notes); then change the link to name it with edit_note "+
			"(op replace, the link's text as find), all the fixes of one note in one call. Where no note fits, leave the "+
			"link and say why; create a missing note only when several notes link to it. End with what you fixed and what you left.", where),
		say("%s", s.prof.Words.Say(render.BrokenLinks(res, false))),
	}, nil
}

func (s *Server) writeDailyNote(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error) {
	date, err := s.w.DailyDate(args["date"])
	if err != nil {
		return nil, err
	}
	activity, err := s.activitySince(ctx, date)
	if err != nil {
		return nil, err
	}
	msgs := []mcp.PromptMessage{
		say("Write the daily note of %s from what changed in the wiki since that day began: a few short bullets of what was "+
			"written or changed and why, each linking the notes it is about as [[path]], then any open questions. Add it with "+
			"daily_note (date %s, op append), after what the note holds already; do not repeat that. "+
			"The day's commits follow, then the daily note so far, if there is one.", date, date),
		embed(activityURIPrefix+date, "text/plain", fmt.Sprintf("Commits since %s:\n", date)+s.prof.Words.Say(render.Activity(activity))),
	}
	daily, err := s.w.Daily(ctx, wiki.DailyRequest{Date: date, Op: "read"})
	switch {
	case err == nil:
		msgs = append(msgs, embed(noteURI(daily.Path), "text/markdown", daily.Note.Content))
	case wiki.CodeOf(err) == wiki.CodeNotFound:
	default:
		return nil, err
	}
	return msgs, nil
}

func (s *Server) answerQuestion(ctx context.Context, args map[string]string) ([]mcp.PromptMessage, error) {
	q := args["question"]
	res, err := s.w.GatherContext(ctx, wiki.ContextRequest{Question: q, Folder: args["folder"], Budget: answerBudget})
	if err != nil {
		return nil, err
	}
	return []mcp.PromptMessage{
		say("Answer from the notes of this wiki: %s\n\nUse the sections below, gathered from the notes for this question, "+
			"and cite each claim by its note and lines, as (path, lines 3-9). If they do not answer it, say what is missing; "+
			"read_note or gather_context with a larger budget brings more.", q),
		say("%s", s.prof.Words.Say(render.Context(res))),
	}, nil
}

// all reports whether ok holds for every one of xs.
func all[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}
