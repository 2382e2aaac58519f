package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// tsMutate makes one change through the TypeScript client and checks it
// with the git CLI: exactly one new commit, the one reported, by the test
// client with the Wiki-Tool, Wiki-Client and Wiki-Base trailers, with the
// subject wantSubject and the call's message as body, each reported
// version the blob at HEAD, a clean status and a sound repository.
func tsMutate(t *testing.T, c *tsClient, dir, tool string, args map[string]any, wantSubject string) mutationOut {
	t.Helper()
	before := git(t, dir, "rev-parse", "HEAD")
	out, _ := tsOK[mutationOut](t, c, tool, args)
	checkTSCommit(t, dir, before, tool, out.Commit, out.Changes, args, wantSubject)
	return out
}

func checkTSCommit(t *testing.T, dir, before, tool, commit string, changes []wiki.NoteChange, args map[string]any, wantSubject string) {
	t.Helper()
	ci := checkCommit(t, dir, before, tool, commit)
	if ci.Subject != wantSubject {
		t.Errorf("%s: subject %q, want %q", tool, ci.Subject, wantSubject)
	}
	if msg, _ := args["message"].(string); msg != "" && !strings.Contains(ci.Body, msg) {
		t.Errorf("%s: the commit body %q lacks the message %q", tool, ci.Body, msg)
	}
	if len(changes) == 0 {
		t.Errorf("%s: no changes reported", tool)
	}
	for _, ch := range changes {
		_, err := gittest.TryGit(dir, "cat-file", "-e", "HEAD:"+ch.File)
		switch {
		case ch.Action == wiki.ActionDeleted && err == nil:
			t.Errorf("%s: %s is still at HEAD", tool, ch.File)
		case ch.Action != wiki.ActionDeleted && ch.Version != git(t, dir, "rev-parse", "HEAD:"+ch.File):
			t.Errorf("%s: %s reported version %s, HEAD has %s", tool, ch.File, ch.Version, git(t, dir, "rev-parse", "HEAD:"+ch.File))
		}
	}
}

func checkTSMutations(t *testing.T, c *tsClient, dir string) {
	const path, file = "inbox/From TS", "inbox/From TS.md"
	read := func(t *testing.T, name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	var version string

	t.Run("write_note", func(t *testing.T) {
		out := tsMutate(t, c, dir, "write_note", map[string]any{"path": file, "content": "# From TS\n\nbody\n",
			"tags": []any{"idea"}, "message": "capture an idea from the TypeScript client"}, "create: "+path)
		if got := read(t, file); got != "---\ntags:\n  - idea\n---\n# From TS\n\nbody\n" || out.Path != path {
			t.Errorf("path %q, file:\n%s", out.Path, got)
		}
		version = out.Version
	})

	t.Run("write_note overwrite", func(t *testing.T) {
		tsFail(t, c, "write_note", map[string]any{"path": path, "content": "# From TS\n"}, "ALREADY_EXISTS")
		out := tsMutate(t, c, dir, "write_note", map[string]any{"path": path, "content": "# From TS\n\nfirst\nsecond\n",
			"overwrite": true, "expected_version": version}, "write: "+path)
		if got := read(t, file); got != "# From TS\n\nfirst\nsecond\n" {
			t.Errorf("file:\n%s", got)
		}
		version = out.Version
	})

	t.Run("edit_note", func(t *testing.T) {
		out := tsMutate(t, c, dir, "edit_note", map[string]any{"path": path, "expected_version": version[:8], "edits": []any{
			map[string]any{"op": "append", "content": "third"},
			map[string]any{"op": "replace", "find": "first", "content": "1st"},
		}}, "edit: "+path)
		if got := read(t, file); got != "# From TS\n\n1st\nsecond\nthird\n" {
			t.Errorf("file:\n%s", got)
		}
		e := tsFail(t, c, "edit_note", map[string]any{"path": path, "expected_version": version,
			"edits": []any{map[string]any{"op": "append", "content": "lost"}}}, "CONFLICT")
		if e["current_version"] != out.Version {
			t.Errorf("CONFLICT names version %v, want %s", e["current_version"], out.Version)
		}
		version = out.Version
	})

	t.Run("dry run", func(t *testing.T) {
		head := git(t, dir, "rev-parse", "HEAD")
		out, txt := tsOK[mutationOut](t, c, "edit_note", map[string]any{"path": path, "dry_run": true,
			"edits": []any{map[string]any{"op": "replace", "find": "second", "content": "2nd"}}})
		if out.Commit != "" || !out.DryRun || !strings.Contains(out.Diff, "\n-second\n+2nd\n") || out.Risk == "" {
			t.Errorf("dry run %+v", out)
		}
		if !strings.HasPrefix(txt, "Dry run, nothing was committed.") {
			t.Errorf("text:\n%s", txt)
		}
		if got := git(t, dir, "rev-parse", "HEAD"); got != head || gittest.Status(t, dir) != "" {
			t.Errorf("a dry run changed the repository: HEAD %s -> %s", head, got)
		}
	})

	t.Run("update_metadata", func(t *testing.T) {
		before := read(t, file)
		out := tsMutate(t, c, dir, "update_metadata", map[string]any{"path": path, "expected_version": version,
			"add_tags": []any{"later"}, "set": map[string]any{"status": "draft", "priority": 2}}, "metadata: "+path)
		n := note.Parse(path, []byte(read(t, file)))
		if !n.HasTag("later") || n.Properties["status"] != "draft" || n.Properties["priority"] != 2 ||
			string(n.Raw[n.BodyStart:]) != before {
			t.Errorf("frontmatter %v, body %q", n.Properties, n.Raw[n.BodyStart:])
		}
		if out.Metadata == nil || out.Metadata.After["status"] != "draft" || out.Metadata.Before["status"] != nil {
			t.Errorf("metadata %+v", out.Metadata)
		}
		version = out.Version
	})

	t.Run("daily_note", func(t *testing.T) {
		before := git(t, dir, "rev-parse", "HEAD")
		args := map[string]any{"date": "2024-06-01", "op": "append_section", "section": "Log", "content": "- shipped the TS tests"}
		out, _ := tsOK[struct {
			Path    string       `json:"path"`
			Created bool         `json:"created"`
			Commit  string       `json:"commit"`
			Version string       `json:"version"`
			Result  *wiki.Result `json:"result"`
		}](t, c, "daily_note", args)
		if out.Result == nil {
			t.Fatal("no result")
		}
		checkTSCommit(t, dir, before, "daily_note", out.Commit, out.Result.Changes, args, "daily: journal/2024-06-01")
		if got := read(t, "journal/2024-06-01.md"); !out.Created || !strings.Contains(got, "## Log\n- shipped the TS tests\n") ||
			!strings.Contains(got, "type: daily") {
			t.Errorf("created %v, file:\n%s", out.Created, got)
		}
	})

	t.Run("apply_changes", func(t *testing.T) {
		args := map[string]any{"message": "file the idea", "changes": []any{
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "inbox/second", "content": "# Second\n\nsee [[inbox/From TS]]\n"}},
			map[string]any{"tool": "update_metadata", "arguments": map[string]any{"path": path, "remove_tags": []any{"later"}}},
			map[string]any{"tool": "delete_note", "arguments": map[string]any{"path": "inbox/untitled", "confirm": true}},
		}}
		before := git(t, dir, "rev-parse", "HEAD")
		out, _ := tsOK[wiki.Result](t, c, "apply_changes", args)
		checkTSCommit(t, dir, before, "apply_changes", out.Commit, out.Changes, args, "batch: 3 notes")
		if got := git(t, dir, "show", "--name-status", "--format=", "HEAD"); got != "M\t"+file+"\nA\tinbox/second.md\nD\tinbox/untitled.md" {
			t.Errorf("the commit changes:\n%s", got)
		}
		for _, ch := range out.Changes {
			if ch.Path == path {
				version = ch.Version
			}
		}
	})

	t.Run("delete_note", func(t *testing.T) {
		out := tsMutate(t, c, dir, "delete_note", map[string]any{"path": path, "confirm": true, "expected_version": version,
			"message": "merged into inbox/second"}, "delete: "+path)
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(file))); !os.IsNotExist(err) {
			t.Errorf("the file is still there: %v", err)
		}
		// Nothing is lost: the last version is one commit back.
		if got := git(t, dir, "rev-parse", "HEAD~1:"+file); got != version || out.Version != "" {
			t.Errorf("HEAD~1 has %s, the last version was %s; reported %q", got, version, out.Version)
		}
		tsFail(t, c, "delete_note", map[string]any{"path": path, "confirm": true}, "NOT_FOUND")
	})
}
