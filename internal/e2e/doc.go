// Package e2e holds the end-to-end tests of wikid's MCP front end: real
// clients (mcp-go's, the official Go, Python and TypeScript SDKs) against
// the wikid binary, built once per run, with the race detector when the
// tests run with it; the daemon, crash and race suites; and the protocol
// checks of a server in the test's process (handshakes, HTTP security and
// limits, resources). The tools' behaviour is tested beside them, in
// package tools, with the kit both share (tools/toolstest). It has no code
// of its own.
package e2e
