package braindrive

import (
	"context"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `BrainDrive Markdown tools over a git repository (served by wikid). Paths are relative ` +
	`markdown files (.md, .markdown, .mdx). Every write is one git commit, returned as git_commit_sha; ` +
	`preview_markdown_change shows exactly what edit_markdown would do.`

var words = wiki.Words{
	"read": "read_markdown", "write": "write_markdown", "edit": "edit_markdown", "metadata": "edit_markdown",
	"delete": "delete_markdown", "move": "git mv", "apply": "edit_markdown",
	"list": "list_markdown_files", "search": "search_markdown", "resolve": "search_markdown", "grep": "search_markdown",
	"links": "search_markdown", "broken_links": "search_markdown", "tags": "search_markdown", "sync": "git pull and git push",
	"history": "get_markdown_activity_log", "diff": "git diff", "blame": "git blame", "activity": "get_markdown_activity_log",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "write_markdown",
	"expected_version": "a fresh read_markdown", "overwrite": "write_markdown", "regex_off": "a plain query",
	"read_only": "a read-only server", "version": "a commit",
	// One operation a call, no count of matches, no moves, no pages.
	"new_path": "new path", "expected_matches": "", "edits": "", "cursor": "cursor", "next_cursor": "cursor",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true}
}

func toolSet() []*tool.Tool {
	return []*tool.Tool{bdRead(), bdList(), bdSearch(), bdPreview(), bdWrite(), bdEdit(), bdDelete(), bdActivity()}
}

// The seed's output schemas, as it gives them.
const (
	bdCommitOutput = `{"type":"object","required":["success","git_commit_sha"],"properties":{"success":{"type":"boolean"},"git_commit_sha":{"type":"string"}}}`
)

// bdInside checks the seed's path rules that keep a path inside the
// library: it is relative, and has no .. segment. Every tool checks them
// first, so that each refuses such a path in the same words.
func bdInside(p string) error {
	q := strings.TrimSpace(p)
	drive := len(q) >= 3 && q[1] == ':' && (q[2] == '/' || q[2] == '\\') &&
		('a' <= q[0] && q[0] <= 'z' || 'A' <= q[0] && q[0] <= 'Z')
	abs := strings.HasPrefix(q, "/") || strings.HasPrefix(q, "\\") || drive
	up := slices.Contains(strings.FieldsFunc(q, func(r rune) bool { return r == '/' || r == '\\' }), "..")
	if abs || up {
		return wiki.Errorf(wiki.CodeInvalidPath, "%q is outside the library: paths are relative to the library, with no .. and no absolute paths", p).
			WithHint("give the path from the library's root, such as notes/plan.md, or \"\" for the root itself")
	}
	return nil
}

// bdFile checks a BrainDrive path: inside the library, a markdown file.
func bdFile(p string) error {
	if err := bdInside(p); err != nil {
		return err
	}
	if _, ext := note.SplitExtension(path.Base(p)); ext == "" {
		return wiki.Errorf(wiki.CodeInvalidPath, "%q is not a markdown file: paths name .md, .markdown or .mdx files", p).
			WithHint("give the file's path with its extension, such as notes/plan.md")
	}
	if _, _, err := note.CleanPath(p); err != nil {
		return err
	}
	return nil
}

// bdFolder checks a BrainDrive folder path and returns it cleaned: "" for
// the root ("" or ".").
func bdFolder(p string) (string, error) {
	if err := bdInside(p); err != nil {
		return "", err
	}
	return note.CleanFolder(p)
}

// bdOperation is an edit operation as BrainDrive gives one.
type bdOperation struct {
	Type    string `json:"type"`
	Target  string `json:"target"`
	Content string `json:"content"`
}

func bdOperationSchema(targetDesc string) *tool.Schema {
	return tool.Object("",
		tool.Req("type", tool.Enum("", note.OpAppend, note.OpPrepend, note.OpReplaceSection, note.OpInsertBefore, note.OpInsertAfter)),
		tool.Opt("target", tool.Str(targetDesc)),
		tool.Req("content", tool.Text("")),
	)
}

// edit is the note edit of an operation: the section ops name their
// heading in target.
func (o bdOperation) edit() (note.Edit, error) {
	e := note.Edit{Op: o.Type, Content: o.Content}
	switch o.Type {
	case note.OpReplaceSection, note.OpInsertBefore, note.OpInsertAfter:
		if strings.TrimSpace(o.Target) == "" {
			return e, tool.ArgError("operation.target", "is required for %s: the heading of the section", o.Type)
		}
		e.Section = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(o.Target), "#"))
	}
	return e, nil
}

// --- read_markdown

type bdPathArgs struct {
	Path string `json:"path"`
}

func bdRead() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("Relative path to a markdown file inside the Library")))
	return &tool.Tool{
		Name: "read_markdown", Group: tool.GroupNotes,
		Description: "Read a markdown file from the BrainDrive Library. Read-only operation.",
		Input:       in,
		SeedOutput: json.RawMessage(`{"type":"object","required":["content","metadata"],"properties":{"content":{"type":"string"},` +
			`"metadata":{"type":"object","required":["size","last_modified","git_commit"],"properties":{"size":{"type":"integer"},` +
			`"last_modified":{"type":"string","format":"date-time"},"git_commit":{"type":"string"}}}}}`),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdPathArgs) (any, string, error) {
			if err := bdFile(a.Path); err != nil {
				return nil, "", err
			}
			res, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.Path, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
			if err != nil {
				return nil, "", err
			}
			modified := ""
			if res.GitModified != nil {
				modified = res.GitModified.UTC().Format(time.RFC3339)
			} else if res.Modified != nil {
				modified = res.Modified.UTC().Format(time.RFC3339)
			}
			return map[string]any{"content": res.Content, "metadata": map[string]any{
				"size": len(res.Content), "last_modified": modified, "git_commit": res.Commit}}, "", nil
		}),
	}
}

// --- list_markdown_files

type bdListArgs struct {
	Path      string `json:"path"`
	Recursive bool   `json:"recursive"`
}

func bdList() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")), tool.Opt("recursive", tool.Boolean("").Def(false)))
	return &tool.Tool{
		Name: "list_markdown_files", Group: tool.GroupSearch,
		Description: "List markdown files and folders under a directory.",
		Input:       in,
		SeedOutput: json.RawMessage(`{"type":"object","required":["files","folders"],"properties":{"files":{"type":"array","items":{"type":"string"}},` +
			`"folders":{"type":"array","items":{"type":"string"}}}}`),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdListArgs) (any, string, error) {
			dir, err := bdFolder(a.Path)
			if err != nil {
				return nil, "", err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, "", err
			}
			all, err := snap.Files(ctx, dir)
			if err != nil {
				return nil, "", err
			}
			files, folders := []string{}, []string{}
			seen := map[string]bool{}
			prefix := dir + "/"
			if dir == "" {
				prefix = ""
			}
			for _, f := range all {
				rel := strings.TrimPrefix(f.Path, prefix)
				if !note.IsMarkdown(f.Path) || strings.HasPrefix(rel, ".") || strings.Contains(rel, "/.") {
					continue // not a note, or in a hidden folder such as .obsidian
				}
				parts := strings.Split(rel, "/")
				for i := 1; i < len(parts) && (a.Recursive || i == 1); i++ {
					folder := prefix + strings.Join(parts[:i], "/")
					if !seen[folder] {
						seen[folder] = true
						folders = append(folders, folder)
					}
				}
				if a.Recursive || len(parts) == 1 {
					files = append(files, f.Path)
				}
			}
			if dir != "" && len(files) == 0 && len(folders) == 0 {
				return nil, "", wiki.Errorf(wiki.CodeNotFound, "no folder %q with markdown files", dir).
					WithHint("list the root with path \"\" to see the folders there are")
			}
			slices.Sort(folders)
			return map[string]any{"files": files, "folders": folders}, "", nil
		}),
	}
}

// --- search_markdown

type bdSearchArgs struct {
	Query string `json:"query"`
	Path  string `json:"path"`
}

func bdSearch() *tool.Tool {
	in := tool.Object("", tool.Req("query", tool.Str("")), tool.Opt("path", tool.Str("")))
	return &tool.Tool{
		Name: "search_markdown", Group: tool.GroupSearch,
		Description: "Search for text across markdown files.",
		Input:       in,
		SeedOutput: json.RawMessage(`{"type":"object","required":["results"],"properties":{"results":{"type":"array","items":{"type":"object",` +
			`"required":["path","matches"],"properties":{"path":{"type":"string"},"matches":{"type":"array","items":{"type":"object",` +
			`"required":["line","snippet"],"properties":{"line":{"type":"integer"},"snippet":{"type":"string"}}}}}}}}}`),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdSearchArgs) (any, string, error) {
			if strings.TrimSpace(a.Query) == "" {
				return nil, "", tool.ArgError("query", "is empty: give the text to find")
			}
			// path is a folder, or one file.
			var folder, only string
			if a.Path != "" && note.IsMarkdown(a.Path) {
				if err := bdFile(a.Path); err != nil {
					return nil, "", err
				}
				folder, only = path.Dir(a.Path), a.Path
				if folder == "." {
					folder = ""
				}
			} else if f, err := bdFolder(a.Path); err != nil {
				return nil, "", err
			} else {
				folder = f
			}
			res, err := s.Wiki.Grep(ctx, wiki.GrepRequest{Pattern: a.Query, Folder: folder, Limit: 500})
			if err != nil {
				return nil, "", err
			}
			type match struct {
				Line    int    `json:"line"`
				Snippet string `json:"snippet"`
			}
			type result struct {
				Path    string  `json:"path"`
				Matches []match `json:"matches"`
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, "", err
			}
			files := map[string]string{} // note path → its file
			results := []result{}
			for _, m := range res.Matches {
				file, ok := files[m.Path]
				if !ok {
					if file = tool.FileOf(ctx, snap, m.Path); file == "" {
						file = m.Path + ".md"
					}
					files[m.Path] = file
				}
				if only != "" && file != only {
					continue
				}
				if n := len(results); n == 0 || results[n-1].Path != file {
					results = append(results, result{Path: file})
				}
				last := &results[len(results)-1]
				last.Matches = append(last.Matches, match{Line: m.Line, Snippet: m.Text})
			}
			return map[string]any{"results": results}, "", nil
		}),
	}
}

// --- preview_markdown_change, edit_markdown

type bdEditArgs struct {
	Path      string      `json:"path"`
	Operation bdOperation `json:"operation"`
}

func bdPreview() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")), tool.Req("operation", bdOperationSchema("Markdown heading or anchor (required for section-based ops)")))
	return &tool.Tool{
		Name: "preview_markdown_change", Group: tool.GroupNotes,
		Description: "Generate a diff preview for a proposed markdown change without writing.",
		Input:       in,
		SeedOutput: json.RawMessage(`{"type":"object","required":["diff","summary","risk_level"],"properties":{"diff":{"type":"string"},` +
			`"summary":{"type":"string"},"risk_level":{"type":"string","enum":["low","medium","high"]}}}`),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdEditArgs) (any, string, error) {
			res, err := bdApply(ctx, s, a, true)
			if err != nil {
				return nil, "", err
			}
			return map[string]any{"diff": res.Diff, "summary": res.Summary, "risk_level": res.Risk}, "", nil
		}),
	}
}

func bdEdit() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")), tool.Req("operation", bdOperationSchema("Required for replace/insert operations")))
	return &tool.Tool{
		Name: "edit_markdown", Group: tool.GroupNotes, Mutating: true,
		Description: "Apply a structured edit to an existing markdown file.",
		Input:       in,
		SeedOutput:  json.RawMessage(bdCommitOutput),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdEditArgs) (any, string, error) {
			res, err := bdApply(ctx, s, a, false)
			if err != nil {
				return nil, "", err
			}
			return bdCommitted(ctx, s, res)
		}),
	}
}

// bdApply runs an edit operation, or its dry run: the preview and the
// write are the same code.
func bdApply(ctx context.Context, s *tool.Env, a *bdEditArgs, dryRun bool) (*wiki.Result, error) {
	if err := bdFile(a.Path); err != nil {
		return nil, err
	}
	e, err := a.Operation.edit()
	if err != nil {
		return nil, err
	}
	return s.Wiki.Edit(ctx, wiki.EditRequest{Path: a.Path, Edits: []note.Edit{e}, Mutation: wiki.Mutation{DryRun: dryRun, Caller: s.Caller}})
}

// bdCommitted is BrainDrive's answer to a write: success and the commit
// that holds it (HEAD when the write changed nothing).
func bdCommitted(ctx context.Context, s *tool.Env, res *wiki.Result) (any, string, error) {
	sha := res.Commit
	if sha == "" {
		head, err := s.Wiki.Head(ctx)
		if err != nil {
			return nil, "", err
		}
		sha = head.Commit
	}
	return map[string]any{"success": true, "git_commit_sha": sha}, "", nil
}

// --- write_markdown

type bdWriteArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

func bdWrite() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")), tool.Req("content", tool.Text("")))
	return &tool.Tool{
		Name: "write_markdown", Group: tool.GroupNotes, Mutating: true, Idempotent: true,
		Description: "Create or overwrite a markdown file. Requires human approval upstream.",
		Input:       in,
		SeedOutput:  json.RawMessage(bdCommitOutput),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdWriteArgs) (any, string, error) {
			if err := bdFile(a.Path); err != nil {
				return nil, "", err
			}
			res, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: a.Path, Content: a.Content, Overwrite: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			return bdCommitted(ctx, s, res)
		}),
	}
}

// --- delete_markdown

type bdDeleteArgs struct {
	Path    string `json:"path"`
	Confirm bool   `json:"confirm"`
}

func bdDelete() *tool.Tool {
	in := tool.Object("", tool.Req("path", tool.Str("")), tool.Req("confirm", tool.Boolean("Must be true to proceed")))
	return &tool.Tool{
		Name: "delete_markdown", Group: tool.GroupNotes, Mutating: true, Destructive: true,
		Description: "Delete a markdown file. Requires explicit confirmation.",
		Input:       in,
		SeedOutput:  json.RawMessage(bdCommitOutput),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdDeleteArgs) (any, string, error) {
			if err := bdFile(a.Path); err != nil {
				return nil, "", err
			}
			if !a.Confirm {
				return nil, "", tool.ArgError("confirm", "is false: set it to true to delete %s", a.Path)
			}
			res, err := s.Wiki.Delete(ctx, wiki.DeleteRequest{Path: a.Path, Confirm: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if err != nil {
				return nil, "", err
			}
			return bdCommitted(ctx, s, res)
		}),
	}
}

// --- get_markdown_activity_log

type bdActivityArgs struct {
	Limit int `json:"limit"`
}

func bdActivity() *tool.Tool {
	in := tool.Object("", tool.Opt("limit", (&tool.Schema{Type: "integer"}).Def(50)))
	return &tool.Tool{
		Name: "get_markdown_activity_log", Group: tool.GroupHistory,
		Description: "Retrieve the markdown operation activity log.",
		Input:       in,
		SeedOutput: json.RawMessage(`{"type":"object","required":["entries"],"properties":{"entries":{"type":"array","items":{"type":"object",` +
			`"required":["timestamp","operation","path","summary","git_commit_sha"],"properties":{"timestamp":{"type":"string","format":"date-time"},` +
			`"operation":{"type":"string"},"path":{"type":"string"},"summary":{"type":"string"},"git_commit_sha":{"type":"string"}}}}}}`),
		Run: tool.Bind(in, func(ctx context.Context, s *tool.Env, a *bdActivityArgs) (any, string, error) {
			limit := a.Limit
			switch {
			case limit == 0:
				limit = 50
			case limit < 0 || limit > 100:
				return nil, "", tool.ArgError("limit", "is %d; give 1 to 100", limit)
			}
			res, err := s.Wiki.Activity(ctx, wiki.ActivityRequest{Limit: limit})
			if err != nil {
				return nil, "", err
			}
			type entry struct {
				Timestamp string `json:"timestamp"`
				Operation string `json:"operation"`
				Path      string `json:"path"`
				Summary   string `json:"summary"`
				SHA       string `json:"git_commit_sha"`
			}
			entries := []entry{}
			for _, c := range res.Commits {
				e := entry{Timestamp: c.Date.UTC().Format(time.RFC3339), Operation: c.Tool, Summary: c.Subject, SHA: c.Commit}
				if e.Operation == "" {
					e.Operation = "git" // a commit made with git, not through a tool
				}
				// The file, with its extension, that the commit changed
				// (the first, when it changed several).
				if info, err := s.Wiki.Commit(ctx, c.Commit); err == nil {
					parent := ""
					if len(info.Parents) > 0 {
						parent = info.Parents[0]
					}
					if changes, err := s.Wiki.Changes(ctx, parent, c.Commit); err == nil {
						for _, ch := range changes {
							if note.IsMarkdown(ch.Path) {
								e.Path = ch.Path
								break
							}
						}
					}
				}
				entries = append(entries, e)
			}
			return map[string]any{"entries": entries}, "", nil
		}),
	}
}
