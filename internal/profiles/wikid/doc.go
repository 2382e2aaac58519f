// Package wikid is wikid's own profile: its tools (package tools, the
// contract of TOOLS.md) with the surface the seeds' profiles do not have.
//
// Its prompts are for what people do with a wiki and an assistant
// (review_changes, summarize_history, fix_broken_links, write_daily_note,
// answer_question); each embeds the resources it needs, so that the model
// starts with them rather than with calls to make. Its resources are a
// note (wiki://note/{+path}), the recent changes (wiki://recent), a
// note's history, a commit, the activity since a day and the notes with
// a tag. Completions fill the prompts' and templates' arguments (note
// paths, folders, tags, revisions, days), and Watch says what a
// subscription to each resource watches. The server (package mcpserver)
// serves them as it serves the tools, knowing none of them.
package wikid
