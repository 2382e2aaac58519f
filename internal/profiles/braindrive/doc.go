// Package braindrive serves the BrainDrive Markdown MCP's eight tools
// with its names and its input and output schemas: paths are markdown
// files with their extension, every write returns git_commit_sha, a
// preview is the write's own dry run (the same diff, summary and risk
// level), a delete needs confirm, and the activity log is git's history.
package braindrive
