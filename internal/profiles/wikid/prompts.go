package wikid

import (
	"context"
	"errors"
	"fmt"

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

// prompts are wikid's prompts, for the things people do with a wiki and
// an assistant. Each embeds the resources it needs, so that the model
// starts with them rather than with calls to make.
func prompts() []tool.Prompt {
	arg := func(name, desc string, required bool) tool.PromptArgument {
		return tool.PromptArgument{Name: name, Description: desc, Required: required}
	}
	return []tool.Prompt{
		{Name: "review_changes", Title: "Review changes",
			Description: "Review what assistants changed in the wiki since a day: the activity log and each commit's diff, embedded.",
			Arguments:   []tool.PromptArgument{arg("since", "The first day to review, YYYY-MM-DD; default yesterday.", false)},
			Groups:      []string{tool.GroupHistory}, Render: reviewChanges},
		{Name: "summarize_history", Title: "Summarize a note's history",
			Description: "Summarize how a note came to be what it is: the note, its commits and the diffs of its latest changes, embedded.",
			Arguments:   []tool.PromptArgument{arg("path", "The note path, e.g. projects/alpha/plan.", true)},
			Groups:      []string{tool.GroupHistory, tool.GroupNotes}, Render: summarizeHistory},
		{Name: "fix_broken_links", Title: "Fix broken links",
			Description: "Find and fix the links that resolve to no note: the broken links with their lines, embedded.",
			Arguments:   []tool.PromptArgument{arg("folder", "Only the notes under this folder; default the whole wiki.", false)},
			Groups:      []string{tool.GroupLinks, tool.GroupNotes, tool.GroupSearch}, Writes: true, Render: fixBrokenLinks},
		{Name: "write_daily_note", Title: "Write the daily note",
			Description: "Write a day's daily note from what changed in the wiki that day: the day's commits and the daily note so far, embedded.",
			Arguments:   []tool.PromptArgument{arg("date", "The day, YYYY-MM-DD; default today.", false)},
			Groups:      []string{tool.GroupHistory, tool.GroupNotes}, Writes: true, Render: writeDailyNote},
		{Name: "answer_question", Title: "Answer from the notes",
			Description: "Answer a question from the notes, citing them: the sections that answer it best, gathered within a budget, embedded.",
			Arguments: []tool.PromptArgument{arg("question", "The question, in words.", true),
				arg("folder", "Only the notes under this folder; default the whole wiki.", false)},
			Groups: []string{tool.GroupSearch, tool.GroupNotes}, Render: answerQuestion},
	}
}

// text is a user message of text.
func text(format string, args ...any) tool.Message {
	return tool.Message{Text: fmt.Sprintf(format, args...)}
}

// embed is a user message that embeds a resource's text.
func embed(uri, mime, text string) tool.Message {
	return tool.Message{URI: uri, MIME: mime, Text: text}
}

func reviewChanges(ctx context.Context, env *tool.Env, args map[string]string) ([]tool.Message, error) {
	w := env.Wiki
	since := args["since"]
	if since == "" {
		since = w.Options().Now().In(w.Options().Location).AddDate(0, 0, -1).Format("2006-01-02")
	}
	activity, err := activitySince(ctx, w, since)
	if err != nil {
		return nil, err
	}
	msgs := []tool.Message{
		text("Review the changes made to this wiki since %s. The wiki's commits follow, then each commit's diff. "+
			"For each commit made by an assistant (it names a tool and a client), say in a line or two what it changed and whether "+
			"it looks right: lost or garbled content, wrong facts, broken links or formatting, a change nobody asked for. "+
			"End with the commits to undo, if any; revert_change undoes one as a new commit, after a dry_run. "+
			"Commits made by people are context: do not judge them.", since),
		embed(activityURIPrefix+since, "text/plain", fmt.Sprintf("Commits since %s:\n", since)+say(render.Activity(activity))),
	}
	for _, c := range activity.Commits[:min(reviewCommits, len(activity.Commits))] {
		t, err := commitText(ctx, w, c.Commit)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, embed(commitURIPrefix+c.Short, "text/plain", t))
	}
	if more := activity.Total - min(reviewCommits, len(activity.Commits)); more > 0 {
		msgs = append(msgs, text("%d older commits are left out; read wiki://commit/<id> for the diff of one.", more))
	}
	return msgs, nil
}

func summarizeHistory(ctx context.Context, env *tool.Env, args map[string]string) ([]tool.Message, error) {
	w := env.Wiki
	p := args["path"]
	history, err := historyText(ctx, w, p)
	if err != nil {
		return nil, err
	}
	msgs := []tool.Message{
		text("Summarize the history of the note %s: how it began, how it grew, who changed it and why, and what changed lately. "+
			"Name commits by their short ids. The note as it is now, its commits and the diffs of its latest changes follow.", p),
	}
	r, err := w.Read(ctx, wiki.ReadRequest{Path: p, MaxChars: int(w.Options().MaxNoteSize)})
	switch {
	case err == nil:
		msgs = append(msgs, embed(noteURI(r.Path), "text/markdown", r.Content))
	case errors.Is(err, wiki.ErrNotFound):
		msgs = append(msgs, text("The note no longer exists; its history says when it was deleted."))
	default:
		return nil, err
	}
	return append(msgs, embed(historyURIPrefix+escapePath(p), "text/plain", history)), nil
}

func fixBrokenLinks(ctx context.Context, env *tool.Env, args map[string]string) ([]tool.Message, error) {
	res, err := env.Wiki.FindBrokenLinks(ctx, wiki.BrokenLinksRequest{Folder: args["folder"], Limit: brokenLimit})
	if err != nil {
		return nil, err
	}
	where := "the wiki"
	if f := args["folder"]; f != "" {
		where = "the notes under " + f
	}
	if res.Total == 0 {
		return []tool.Message{text("%s has no broken links: there is nothing to fix. Say so.", where)}, nil
	}
	return []tool.Message{
		text("Fix the broken links of %s, listed below with their lines. For each, find the note it meant "+
			"(resolve_notes with strategy fuzzy, or search_notes); then change the link to name it with edit_note "+
			"(op replace, the link's text as find), all the fixes of one note in one call. Where no note fits, leave the "+
			"link and say why; create a missing note only when several notes link to it. End with what you fixed and what you left.", where),
		text("%s", say(render.BrokenLinks(res, false))),
	}, nil
}

func writeDailyNote(ctx context.Context, env *tool.Env, args map[string]string) ([]tool.Message, error) {
	w := env.Wiki
	date, err := w.DailyDate(args["date"])
	if err != nil {
		return nil, err
	}
	activity, err := activitySince(ctx, w, date)
	if err != nil {
		return nil, err
	}
	msgs := []tool.Message{
		text("Write the daily note of %s from what changed in the wiki since that day began: a few short bullets of what was "+
			"written or changed and why, each linking the notes it is about as [[path]], then any open questions. Add it with "+
			"daily_note (date %s, op append), after what the note holds already; do not repeat that. "+
			"The day's commits follow, then the daily note so far, if there is one.", date, date),
		embed(activityURIPrefix+date, "text/plain", fmt.Sprintf("Commits since %s:\n", date)+say(render.Activity(activity))),
	}
	daily, err := w.Daily(ctx, wiki.DailyRequest{Date: date, Op: "read"})
	switch {
	case err == nil:
		msgs = append(msgs, embed(noteURI(daily.Path), "text/markdown", daily.Note.Content))
	case wiki.CodeOf(err) == wiki.CodeNotFound:
	default:
		return nil, err
	}
	return msgs, nil
}

func answerQuestion(ctx context.Context, env *tool.Env, args map[string]string) ([]tool.Message, error) {
	q := args["question"]
	res, err := env.Wiki.GatherContext(ctx, wiki.ContextRequest{Question: q, Folder: args["folder"], Budget: answerBudget})
	if err != nil {
		return nil, err
	}
	return []tool.Message{
		text("Answer from the notes of this wiki: %s\n\nUse the sections below, gathered from the notes for this question, "+
			"and cite each claim by its note and lines, as (path, lines 3-9). If they do not answer it, say what is missing; "+
			"read_note or gather_context with a larger budget brings more.", q),
		text("%s", say(render.Context(res))),
	}, nil
}
