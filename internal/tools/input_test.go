package tools_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/tools/toolstest"
	"github.com/wikid/wikid/internal/wiki"
)

// inputSession serves a wiki of the given files, committed with the git
// CLI as an editor would leave them, and connects a client.
func inputSession(t *testing.T, files map[string]string) (*toolstest.Session, string) {
	t.Helper()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", files)
	w := toolstest.OpenWiki(t, dir, nil)
	url := toolstest.ServeHTTP(t, w, mcpserver.Options{}, mcpserver.HTTPOptions{})
	return toolstest.NewSession(t, toolstest.ConnectHTTP(t, url, nil, toolstest.HandshakeProtocol)), dir
}

// unchanged checks that HEAD is still head and the checkout clean.
func unchanged(t *testing.T, dir, head string) {
	t.Helper()
	if now := toolstest.Git(t, dir, "rev-parse", "HEAD"); now != head {
		t.Errorf("HEAD moved from %s to %s:\n%s", head, now, toolstest.Git(t, dir, "log", "--stat", "-1"))
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
}

// errText returns the message and hint of a structured error.
func errText(e map[string]any) (msg, hint string) {
	msg, _ = e["message"].(string)
	hint, _ = e["hint"].(string)
	return msg, hint
}

// TestServer_RefusesForeignExtensions checks that a new note named like
// another kind of file is refused with a hint, instead of getting ".md"
// after that extension, and that dotted names stay notes.
func TestServer_RefusesForeignExtensions(t *testing.T) {
	s, dir := inputSession(t, map[string]string{"plan.md": "# Plan\n", "papers/paper.pdf": "%PDF-1.4\n"})
	head := toolstest.Git(t, dir, "rev-parse", "HEAD")
	t.Run("refused", func(t *testing.T) {
		for _, p := range []string{"misc/notes.txt", "papers/paper.pdf", "a/Photo.PNG", "boards/plan.canvas"} {
			e := s.Fail("write_note", map[string]any{"path": p, "content": "x"}, "INVALID_PATH")
			ext := p[strings.LastIndexByte(p, '.'):]
			base := strings.TrimSuffix(p, ext)
			if msg, hint := errText(e); !strings.Contains(msg, "ends in "+ext+", which is not a markdown extension") ||
				!strings.Contains(hint, "use "+base+" or "+base+".md") {
				t.Errorf("write_note %s: %v", p, e)
			}
		}
		s.Fail("move_note", map[string]any{"path": "plan", "new_path": "plan.json"}, "INVALID_PATH")
		s.Fail("apply_changes", map[string]any{"changes": []any{
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "ok", "content": "x"}},
			map[string]any{"tool": "write_note", "arguments": map[string]any{"path": "data.json", "content": "{}"}},
		}}, "INVALID_PATH")
		unchanged(t, dir, head)
		if files := toolstest.Git(t, dir, "ls-files"); strings.Contains(files, "notes.txt") || strings.Contains(files, "data.json") || strings.Contains(files, "ok.md") {
			t.Errorf("files written:\n%s", files)
		}
	})
	t.Run("dotted names are notes", func(t *testing.T) {
		for _, p := range []string{"releases/v1.2 release", "journal/2024.01.05", "tools/Node.js", "misc/notes.txt.md"} {
			res, _ := toolstest.OK[wiki.Result](s, "write_note", map[string]any{"path": p, "content": "x"})
			if want := strings.TrimSuffix(p, ".md") + ".md"; len(res.Changes) != 1 || res.Changes[0].File != want {
				t.Errorf("write_note %s: %+v, want file %s", p, res.Changes, want)
			}
		}
		// The note misc/notes.txt exists now, so its name works.
		toolstest.OK[wiki.Result](s, "write_note", map[string]any{"path": "misc/notes.txt", "content": "y", "overwrite": true})
		if got := toolstest.Git(t, dir, "show", "HEAD:misc/notes.txt.md"); got != "y" {
			t.Errorf("misc/notes.txt.md holds %q", got)
		}
	})
}

// TestServer_RefusesInvalidUTF8Paths checks that a path whose bytes were
// not UTF-8 names no new note.
func TestServer_RefusesInvalidUTF8Paths(t *testing.T) {
	s, dir := inputSession(t, map[string]string{"plan.md": "# Plan\n"})
	head := toolstest.Git(t, dir, "rev-parse", "HEAD")
	// JSON has no invalid UTF-8: the client's encoder, like any JSON
	// decoder, turns the byte into U+FFFD before wikid sees the path.
	for _, p := range []string{"caf\xe9", "notes/caf\uFFFD", "a\xff/b.md"} {
		e := s.Fail("write_note", map[string]any{"path": p, "content": "x"}, "INVALID_PATH")
		if msg, _ := errText(e); !strings.Contains(msg, "U+FFFD") {
			t.Errorf("write_note %q: %v", p, e)
		}
	}
	s.Fail("move_note", map[string]any{"path": "plan", "new_path": "pl\xe4n"}, "INVALID_PATH")
	unchanged(t, dir, head)
	if files := toolstest.Git(t, dir, "ls-files", "-z"); strings.ContainsRune(files, '\uFFFD') {
		t.Errorf("a file name holds U+FFFD: %q", files)
	}
}

// TestServer_PortableNames checks that a new note's name is one that
// Windows and macOS can check out, refused with the reason otherwise, and
// that its two Unicode spellings are one note, named in normal form C.
func TestServer_PortableNames(t *testing.T) {
	s, dir := inputSession(t, map[string]string{"plan.md": "# Plan\n", "a:b.md": "colon\n"})
	head := toolstest.Git(t, dir, "rev-parse", "HEAD")
	for p, want := range map[string]string{
		"Q&A: 2024":     `path "Q&A: 2024": ':' is not allowed in a name on Windows`,
		"notes/CON":     `path "notes/CON": "CON" is the name of a device on Windows`,
		"why?":          `'?' is not allowed in a name on Windows`,
		"a\u202eb":      "U+202E RIGHT-TO-LEFT OVERRIDE",
		"\ufeffheading": "U+FEFF BYTE ORDER MARK",
	} {
		e := s.Fail("write_note", map[string]any{"path": p, "content": "x"}, "INVALID_PATH")
		if msg, hint := errText(e); !strings.Contains(msg, want) || hint == "" {
			t.Errorf("write_note %q: %v", p, e)
		}
	}
	s.Fail("move_note", map[string]any{"path": "plan", "new_path": "plan|old"}, "INVALID_PATH")
	unchanged(t, dir, head)
	// An existing note keeps its name.
	toolstest.OK[wiki.Result](s, "write_note", map[string]any{"path": "a:b", "content": "y", "overwrite": true})

	toolstest.OK[wiki.Result](s, "write_note", map[string]any{"path": "cafe\u0301", "content": "x"})
	s.Fail("write_note", map[string]any{"path": "caf\u00e9", "content": "y"}, "ALREADY_EXISTS")
	if files := toolstest.Git(t, dir, "ls-files", "-z"); files != "a:b.md\x00caf\u00e9.md\x00plan.md\x00" {
		t.Errorf("git ls-files -z = %q", files)
	}
}

// TestServer_RefusesTagsNotAList checks that adding or removing tags in a
// tags value that is not a list or a string is refused, saying what the
// value is, instead of replacing it with the new tags.
func TestServer_RefusesTagsNotAList(t *testing.T) {
	s, dir := inputSession(t, map[string]string{
		"tags/set.md":   "---\ntitle: Set\ntags: !!set {a, b}\n---\nbody\n",
		"tags/map.md":   "---\ntags: {a: 1}\n---\nbody\n",
		"tags/mixed.md": "---\ntags: [a, {b: 1}]\n---\nbody\n",
	})
	head := toolstest.Git(t, dir, "rev-parse", "HEAD")
	for _, c := range []struct{ path, what string }{
		{"tags/set", `tags is a set, not a list or a string of tags: "tags: !!set {a, b}"`},
		{"tags/map", `tags is a mapping, not a list or a string of tags: "tags: {a: 1}"`},
		{"tags/mixed", `tags is a list whose item 2 is a mapping`},
	} {
		for _, args := range []map[string]any{
			{"path": c.path, "add_tags": []string{"c"}},
			{"path": c.path, "remove_tags": []string{"a"}},
		} {
			e := s.Fail("update_metadata", args, "INVALID_PARAMS")
			if msg, hint := errText(e); !strings.Contains(msg, c.what) || hint == "" {
				t.Errorf("update_metadata %v: %v, want %q", args, e, c.what)
			}
		}
		e := s.Fail("write_note", map[string]any{"path": c.path, "content": toolstest.Git(t, dir, "show", "HEAD:"+c.path+".md") + "\n",
			"overwrite": true, "tags": []string{"c"}}, "INVALID_PARAMS")
		if msg, _ := errText(e); !strings.Contains(msg, c.what) {
			t.Errorf("write_note %s with tags: %v", c.path, e)
		}
	}
	unchanged(t, dir, head)
	// Replacing all tags is what the caller asks for: it goes through.
	res, _ := toolstest.OK[wiki.Result](s, "update_metadata", map[string]any{"path": "tags/set", "tags": []string{"c"}})
	if got := toolstest.Git(t, dir, "show", "HEAD:tags/set.md"); got != "---\ntitle: Set\ntags:\n  - c\n---\nbody" || res.Metadata == nil {
		t.Errorf("tags/set.md after replacing its tags:\n%s", got)
	}
}

// TestServer_ByteOrderMark checks that read_note, update_metadata and
// edit_note agree on a note that starts with a byte order mark: the mark
// stays first in the file and the note after it, frontmatter included, is
// read and changed as without it.
func TestServer_ByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	s, dir := inputSession(t, map[string]string{
		"front.md": bom + "---\ntitle: With frontmatter\ntags: [a]\n---\n# Head\nbody\n",
		"crlf.md":  bom + "---\r\ntags: a\r\n---\r\n# Windows\r\nbody\r\n",
		"plain.md": bom + "# Plain heading\n\nText #t.\n",
	})
	tests := []struct {
		path, title  string
		tags         []string
		edit, update string // the file after prepending "First" and appending "Last"; after add_tags x
	}{
		{"front", "With frontmatter", []string{"a"},
			bom + "---\ntitle: With frontmatter\ntags: [a]\n---\nFirst\n# Head\nbody\nLast\n",
			bom + "---\ntitle: With frontmatter\ntags: [a, x]\n---\nFirst\n# Head\nbody\nLast\n"},
		{"crlf", "Windows", []string{"a"},
			bom + "---\r\ntags: a\r\n---\r\nFirst\r\n# Windows\r\nbody\r\nLast\r\n",
			bom + "---\r\ntags: a x\r\n---\r\nFirst\r\n# Windows\r\nbody\r\nLast\r\n"},
		{"plain", "Plain heading", []string{"t"},
			bom + "First\n# Plain heading\n\nText #t.\nLast\n",
			bom + "---\ntags:\n  - x\n---\nFirst\n# Plain heading\n\nText #t.\nLast\n"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			check := func(step string, wantTags []string, wantFile string) {
				t.Helper()
				r, _ := toolstest.OK[wiki.ReadResult](s, "read_note", map[string]any{"path": tt.path})
				slices.Sort(r.Tags)
				if r.Title != tt.title || !slices.Equal(r.Tags, wantTags) || len(r.Headings) != 1 || len(r.Warnings) > 0 {
					t.Errorf("read_note %s: title %q, tags %q, headings %+v, warnings %q; want %q, %q",
						step, r.Title, r.Tags, r.Headings, r.Warnings, tt.title, wantTags)
				}
				if wantFile == "" {
					return
				}
				if got, _ := os.ReadFile(filepath.Join(dir, tt.path+".md")); string(got) != wantFile {
					t.Errorf("%s:\n%q\nwant\n%q", step, got, wantFile)
				}
			}
			check("as committed", tt.tags, "")
			toolstest.OK[wiki.Result](s, "edit_note", map[string]any{"path": tt.path, "edits": []any{
				map[string]any{"op": "prepend", "content": "First"},
				map[string]any{"op": "append", "content": "Last"},
			}})
			check("after edit_note", tt.tags, tt.edit)
			toolstest.OK[wiki.Result](s, "update_metadata", map[string]any{"path": tt.path, "add_tags": []string{"x"}})
			check("after update_metadata", slices.Sorted(slices.Values(append(slices.Clone(tt.tags), "x"))), tt.update)
		})
	}
	if st := gittest.Status(t, dir); st != "" {
		t.Errorf("git status not clean:\n%s", st)
	}
	gittest.Fsck(t, dir)
}
