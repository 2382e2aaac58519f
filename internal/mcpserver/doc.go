// Package mcpserver serves a wiki over the Model Context Protocol; it is the
// only package that imports mcp-go.
//
// It defines the tools of the tool contract (TOOLS.md) on top of wiki.Wiki:
// each tool has an input schema that is both published and enforced (an
// unknown argument, a wrong type or a value outside its enum or range is
// INVALID_PARAMS naming the argument), an output schema, and a result with
// structured content plus a short text rendering for the model. Errors are
// results with isError set, the text "CODE: message. Hint: ..." and the
// structured content {"error": {"code", "message", "hint", ...}}; errors
// without a contract code are INTERNAL, their details logged only.
//
// Each change is attributed to the client that asked for it: the commit's
// Wiki-Client trailer is "name/version" from the client's clientInfo, and
// its author is that name with the email <name>@mcp.wikid, unless
// Options.Author names a fixed author. A read-only server hides the
// mutating tools and answers READ_ONLY if one is called anyway.
//
// The server speaks stdio (ServeStdio) and streamable HTTP (HTTPHandler,
// with a bearer token and an Origin check).
package mcpserver
