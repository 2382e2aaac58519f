// Package roux serves Roux's graph tools: nodes are notes, a node's id
// is its file path in lower case (with .md), and answers are JSON as
// text. What Roux calls "not an error" (a missing node, no path, no
// neighbours) answers null, [] or {"deleted": false}; errors are
// {"error": {"code", "message"}} with Roux's codes. Its search tool is
// listed only when semantic search is configured, as Roux lists it only
// with an embedding provider.
package roux
