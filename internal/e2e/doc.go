// Package e2e holds the end-to-end tests of wikid's MCP front end: real
// clients (mcp-go's, the official Go, Python and TypeScript SDKs) against
// the wikid binary, built once per run, with the race detector when the
// tests run with it; the daemon, crash and race suites; and the protocol
// checks of a server in the test's process (handshakes, HTTP security and
// limits, resources). The tools' behaviour is tested beside them, in
// package tools, with the kit both share (tools/toolstest). It has no code
// of its own. It is make test's longest package: its tests that take
// seconds and drive a repository, processes and a daemon runtime folder of
// their own run in parallel (t.Parallel), four at a time unless -parallel
// says otherwise; those that wait a fixed time for something to happen,
// or bound a time, run alone.
package e2e
