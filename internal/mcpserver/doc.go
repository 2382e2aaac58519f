// Package mcpserver serves a wiki's tools over the Model Context Protocol;
// it is the only package that imports mcp-go.
//
// It holds the transport and nothing of any tool: stdio (ServeStdio) and
// streamable HTTP (HTTPHandler, with a bearer token and an Origin check),
// sessions, request ids and limits, progress and cancellation, who a call
// acts for, the error shape, and subscriptions as a mechanism. What it
// serves comes from a profile (package tool's Profile), one of the table
// the program hands it (Options.Profiles, chosen by Options.Profile):
// wikid's own (package profiles/wikid) or the exact contract of a system
// users come from. It imports none of them.
//
// A profile may have, besides its tools, prompts, resources, completions
// of their arguments, and a Watch that says what a subscription to a URI
// watches; the server publishes each capability only where the profile
// has it (wikid's own has all, the seeds' none). Resource subscriptions
// are one mechanism for both protocol eras (resources/subscribe before
// 2026-07-28, subscriptions/listen since): while a session or a listen
// stream is open the server watches the branch (wiki.Watch), and a commit
// that changes a subscribed resource, whoever made it, sends
// notifications/resources/updated to its subscribers. On 2026-07-28 a
// client is told only what it opted in to.
//
// Prompts, resources and completions fail with the protocol's JSON-RPC
// codes (see answerCode): -32602 for a bad argument, resource-not-found
// (-32002, or -32602 on 2026-07-28) for a missing resource.
//
// Errors are results with isError set, the text "CODE: message. Hint: ..."
// and the structured content {"error": {"code", "message", "hint", ...}};
// errors without a contract code are INTERNAL, their details logged only.
// A plain profile answers in text only, worded as its source system words
// its errors.
//
// Each change is attributed to the client that asked for it: the commit's
// Wiki-Client trailer is "name/version" from the client's clientInfo, and
// its author is that name with the email <name>@mcp.wikid, unless
// Options.Author names a fixed author. A read-only server hides the
// mutating tools and answers READ_ONLY if one is called anyway.
package mcpserver
