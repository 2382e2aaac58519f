// Package e2e holds the end-to-end tests of wikid's MCP front end: real
// clients (mcp-go's, and the official TypeScript SDK through Node.js)
// against a server in the test's process and against the wikid binary,
// built once per run, with the race detector when the tests run with it.
// It has no code of its own.
package e2e
