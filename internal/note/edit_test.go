package note

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/wikierr"
)

// base is the note most edit tests start from.
const base = "# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n\n## Done\n- c\n"

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		// append and prepend
		{"append", base, []Edit{{Op: OpAppend, Content: "x"}}, base + "x\n"},
		{"append with default expected_matches", base, []Edit{{Op: OpAppend, Content: "x", ExpectedMatches: 1}}, base + "x\n"},
		{"append content with final newline", base, []Edit{{Op: OpAppend, Content: "x\n"}}, base + "x\n"},
		{"append content with blank line first", base, []Edit{{Op: OpAppend, Content: "\nx"}}, base + "\nx\n"},
		{"append keeps trailing blank lines last", "text\n\n\n", []Edit{{Op: OpAppend, Content: "x"}}, "text\nx\n\n\n"},
		{"append after last line without newline", "text", []Edit{{Op: OpAppend, Content: "x"}}, "text\nx\n"},
		{"append to empty note", "", []Edit{{Op: OpAppend, Content: "x"}}, "x\n"},
		{"append to blank note", "\n\n", []Edit{{Op: OpAppend, Content: "x"}}, "x\n\n\n"},
		{"append multi-line", base, []Edit{{Op: OpAppend, Content: "x\ny"}}, base + "x\ny\n"},
		{"prepend", base, []Edit{{Op: OpPrepend, Content: "x"}}, "x\n" + base},
		{"prepend after leading blank lines", "\n\n# T\n", []Edit{{Op: OpPrepend, Content: "x"}}, "\n\nx\n# T\n"},
		{"prepend to empty note", "", []Edit{{Op: OpPrepend, Content: "x"}}, "x\n"},

		// replace
		{"replace", base, []Edit{{Op: OpReplace, Find: "- b", Content: "- B"}}, strings.Replace(base, "- b", "- B", 1)},
		{"replace across lines", base, []Edit{{Op: OpReplace, Find: "- a\n- b", Content: "- ab"}}, strings.Replace(base, "- a\n- b", "- ab", 1)},
		{"replace expected matches", base, []Edit{{Op: OpReplace, Find: "##", Content: "###", ExpectedMatches: 2}},
			strings.ReplaceAll(base, "##", "###")},
		{"replace with nothing", base, []Edit{{Op: OpReplace, Find: "Intro.\n\n", Content: ""}}, strings.Replace(base, "Intro.\n\n", "", 1)},
		{"replace in heading", base, []Edit{{Op: OpReplace, Find: "# Title", Content: "# New title"}}, strings.Replace(base, "# Title", "# New title", 1)},
		{"replace unicode", "café ☕\n", []Edit{{Op: OpReplace, Find: "é ☕", Content: "e 🍵"}}, "cafe 🍵\n"},

		// append_section
		{"append_section before blank line", base, []Edit{{Op: OpAppendSection, Section: "Tasks", Content: "- new"}},
			"# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n- new\n\n## Done\n- c\n"},
		{"append_section after subsections", "# P\np\n## C\nc\n\n# Q\n", []Edit{{Op: OpAppendSection, Section: "P", Content: "x"}},
			"# P\np\n## C\nc\nx\n\n# Q\n"},
		{"append_section at end of note", base, []Edit{{Op: OpAppendSection, Section: "Done", Content: "- d"}}, base + "- d\n"},
		{"append_section to empty section", "## A\n\n## B\n", []Edit{{Op: OpAppendSection, Section: "A", Content: "x"}},
			"## A\nx\n\n## B\n"},
		{"append_section to heading without newline", "## A", []Edit{{Op: OpAppendSection, Section: "A", Content: "x"}}, "## A\nx\n"},
		{"append_section first of duplicates", "## A\n1\n## A\n2\n", []Edit{{Op: OpAppendSection, Section: "A", Content: "x"}},
			"## A\n1\nx\n## A\n2\n"},
		{"append_section by path", "# X\n## A\n1\n# Y\n## A\n2\n", []Edit{{Op: OpAppendSection, Section: "Y/A", Content: "x"}},
			"# X\n## A\n1\n# Y\n## A\n2\nx\n"},
		{"append_section unicode", "## Café\nlatte\n", []Edit{{Op: OpAppendSection, Section: "café", Content: "mocha ☕"}},
			"## Café\nlatte\nmocha ☕\n"},

		// prepend_section
		{"prepend_section", base, []Edit{{Op: OpPrependSection, Section: "Tasks", Content: "- first"}},
			"# Title\n\nIntro.\n\n## Tasks\n- first\n- a\n- b\n\n## Done\n- c\n"},
		{"prepend_section after blank lines", "## A\n\ntext\n", []Edit{{Op: OpPrependSection, Section: "A", Content: "x"}},
			"## A\n\nx\ntext\n"},
		{"prepend_section before subsection", "## A\n### B\n", []Edit{{Op: OpPrependSection, Section: "A", Content: "x"}},
			"## A\nx\n### B\n"},
		{"prepend_section to empty section", "## A\n\n## B\n", []Edit{{Op: OpPrependSection, Section: "A", Content: "x"}},
			"## A\nx\n\n## B\n"},

		// replace_section
		{"replace_section", base, []Edit{{Op: OpReplaceSection, Section: "Tasks", Content: "- z"}},
			"# Title\n\nIntro.\n\n## Tasks\n- z\n\n## Done\n- c\n"},
		{"replace_section keeps blank lines around", "## A\n\nold\nold2\n\n## B\n", []Edit{{Op: OpReplaceSection, Section: "A", Content: "new"}},
			"## A\n\nnew\n\n## B\n"},
		{"replace_section replaces subsections", "## A\na\n### A1\nx\n## B\n", []Edit{{Op: OpReplaceSection, Section: "A", Content: "new"}},
			"## A\nnew\n## B\n"},
		{"replace_section with nothing", "## A\n\nold\n\n## B\n", []Edit{{Op: OpReplaceSection, Section: "A"}}, "## A\n\n## B\n"},
		{"replace_section of empty section", "## A\n\n## B\n", []Edit{{Op: OpReplaceSection, Section: "A", Content: "x"}},
			"## A\nx\n\n## B\n"},
		{"replace_section of empty section with nothing", "## A\n\n## B\n", []Edit{{Op: OpReplaceSection, Section: "A"}},
			"## A\n\n## B\n"},
		{"replace_section at end without newline", "## A\nold", []Edit{{Op: OpReplaceSection, Section: "A", Content: "new"}}, "## A\nnew\n"},

		// insert_before and insert_after
		{"insert_before", base, []Edit{{Op: OpInsertBefore, Section: "Done", Content: "## Doing\n- d\n"}},
			"# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n\n## Doing\n- d\n## Done\n- c\n"},
		{"insert_before with blank line", base, []Edit{{Op: OpInsertBefore, Section: "Done", Content: "## Doing\n- d\n\n"}},
			"# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n\n## Doing\n- d\n\n## Done\n- c\n"},
		{"insert_before first heading", base, []Edit{{Op: OpInsertBefore, Section: "Title", Content: "x"}}, "x\n" + base},
		{"insert_after skips subsections", "# P\n## C\nc\n# Q\n", []Edit{{Op: OpInsertAfter, Section: "P", Content: "x"}},
			"# P\n## C\nc\nx\n# Q\n"},
		{"insert_after goes after blank lines", base, []Edit{{Op: OpInsertAfter, Section: "Tasks", Content: "## Doing"}},
			"# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n\n## Doing\n## Done\n- c\n"},
		{"insert_after last section", base, []Edit{{Op: OpInsertAfter, Section: "Done", Content: "x"}}, base + "x\n"},
		{"insert_after last section without newline", "## A\na", []Edit{{Op: OpInsertAfter, Section: "A", Content: "x"}}, "## A\na\nx\n"},

		// delete_section
		{"delete_section", base, []Edit{{Op: OpDeleteSection, Section: "Tasks"}}, "# Title\n\nIntro.\n\n## Done\n- c\n"},
		{"delete_section with subsections", "# P\n## C\nc\n# Q\n", []Edit{{Op: OpDeleteSection, Section: "P"}}, "# Q\n"},
		{"delete_section last", base, []Edit{{Op: OpDeleteSection, Section: "Done"}}, "# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n\n"},
		{"delete_section whole note", base, []Edit{{Op: OpDeleteSection, Section: "Title"}}, ""},

		// several edits see each other's results
		{"edits in order", base, []Edit{
			{Op: OpAppendSection, Section: "Tasks", Content: "- c2"},
			{Op: OpReplace, Find: "- c2", Content: "- c3"},
		}, "# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n- c3\n\n## Done\n- c\n"},
		{"section added by an earlier edit", base, []Edit{
			{Op: OpAppend, Content: "\n## New"},
			{Op: OpAppendSection, Section: "New", Content: "x"},
		}, base + "\n## New\nx\n"},

		// CRLF notes stay CRLF
		{"crlf append_section", crlf(base), []Edit{{Op: OpAppendSection, Section: "Tasks", Content: "- new\n- more"}},
			crlf("# Title\n\nIntro.\n\n## Tasks\n- a\n- b\n- new\n- more\n\n## Done\n- c\n")},
		{"crlf content", crlf(base), []Edit{{Op: OpAppend, Content: "x\r\ny"}}, crlf(base + "x\ny\n")},
		{"crlf replace with lf find", crlf(base), []Edit{{Op: OpReplace, Find: "- a\n- b", Content: "- a\n- B"}},
			crlf(strings.Replace(base, "- b", "- B", 1))},
		{"crlf prepend_section", crlf(base), []Edit{{Op: OpPrependSection, Section: "Done", Content: "x"}},
			crlf(strings.Replace(base, "## Done\n", "## Done\nx\n", 1))},
		{"lf replace with crlf find", base, []Edit{{Op: OpReplace, Find: "- a\r\n- b", Content: "- ab"}},
			strings.Replace(base, "- a\n- b", "- ab", 1)},
		{"crlf last line without newline", "a\r\nb", []Edit{{Op: OpAppend, Content: "x"}}, "a\r\nb\r\nx\r\n"},

		// setext headings, and the blank lines that keep them intact
		{"setext append_section", "Title\n=====\ntext\n\nSub\n---\ns\n", []Edit{{Op: OpAppendSection, Section: "Sub", Content: "x"}},
			"Title\n=====\ntext\n\nSub\n---\ns\nx\n"},
		{"setext replace_section", "Title\n=====\ntext\n\nSub\n---\ns\n", []Edit{{Op: OpReplaceSection, Section: "Title", Content: "x"}},
			"Title\n=====\nx\n"},
		{"blank line before setext heading", "Title\n=====\ntext\n\nSub\n---\ns\n", []Edit{{Op: OpInsertBefore, Section: "Sub", Content: "x"}},
			"Title\n=====\ntext\n\nx\n\nSub\n---\ns\n"},
		{"blank line between text and dashes", "text\n", []Edit{{Op: OpAppend, Content: "---\nnew entry"}}, "text\n\n---\nnew entry\n"},
		{"blank line between content and dashes", "## A\n---\nt\n", []Edit{{Op: OpPrependSection, Section: "A", Content: "x"}},
			"## A\nx\n\n---\nt\n"},
		{"no blank line needed after blank content line", "## A\n---\nt\n", []Edit{{Op: OpPrependSection, Section: "A", Content: "x\n\n"}},
			"## A\nx\n\n---\nt\n"},
		{"blank line when a delete joins text and setext heading", "intro\n## A\na\n\nFoo\n---\n", []Edit{{Op: OpDeleteSection, Section: "A"}},
			"intro\n\nFoo\n---\n"},
		{"no blank line when delete leaves blank line", "intro\n\n## A\na\n\nFoo\n---\n", []Edit{{Op: OpDeleteSection, Section: "A"}},
			"intro\n\nFoo\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			got, err := ApplyEdits(src, tt.edits)
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("ApplyEdits(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
			if string(src) != tt.src {
				t.Errorf("ApplyEdits changed its input to %q", src)
			}
		})
	}
}

func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func TestApplyEdits_Frontmatter(t *testing.T) {
	const fm = "---\ntitle: T\ntags: [a]\n---\n"
	if n := Parse("n", []byte(fm)); n.BodyStart != len(fm) {
		t.Skipf("frontmatter not parsed (body starts at %d, want %d)", n.BodyStart, len(fm))
	}
	tests := []struct {
		name  string
		src   string
		edits []Edit
		want  string
	}{
		{"prepend after frontmatter", fm + "# T\nbody\n", []Edit{{Op: OpPrepend, Content: "x"}}, fm + "x\n# T\nbody\n"},
		{"prepend after frontmatter and blank line", fm + "\n# T\n", []Edit{{Op: OpPrepend, Content: "x"}}, fm + "\nx\n# T\n"},
		{"prepend to frontmatter only", fm, []Edit{{Op: OpPrepend, Content: "x"}}, fm + "x\n"},
		{"prepend to frontmatter without newline", strings.TrimSuffix(fm, "\n"), []Edit{{Op: OpPrepend, Content: "x"}}, fm + "x\n"},
		{"append to frontmatter only", fm, []Edit{{Op: OpAppend, Content: "x"}}, fm + "x\n"},
		{"dashes in content after frontmatter", fm, []Edit{{Op: OpPrepend, Content: "---"}}, fm + "\n---\n"},
		{"frontmatter is no section", fm + "# T\n", []Edit{{Op: OpAppendSection, Section: "T", Content: "x"}}, fm + "# T\nx\n"},
		{"crlf", crlf(fm + "# T\n"), []Edit{{Op: OpPrepend, Content: "x"}}, crlf(fm + "x\n# T\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits([]byte(tt.src), tt.edits)
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("ApplyEdits(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
		})
	}
}

func TestApplyEdits_Errors(t *testing.T) {
	tests := []struct {
		name     string
		edits    []Edit
		wantCode wikierr.Code
		wantMsg  string
		wantHint string // a part of the hint
	}{
		{"no edits", nil, wikierr.CodeInvalidParams, "edits is empty", "at least one"},
		{"no op", []Edit{{Content: "x"}}, wikierr.CodeInvalidParams, "edits[0]: op is required", "append, prepend, replace"},
		{"unknown op", []Edit{{Op: "upsert", Content: "x"}}, wikierr.CodeInvalidParams, `edits[0]: unknown op "upsert"`, "delete_section"},
		{"no section", []Edit{{Op: OpAppendSection, Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (append_section): section is required for append_section", "heading"},
		{"blank section", []Edit{{Op: OpDeleteSection, Section: " # "}}, wikierr.CodeInvalidParams, "edits[0] (delete_section): section is required for delete_section", "heading"},
		{"section on append", []Edit{{Op: OpAppend, Section: "Tasks", Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (append): section is not used by append", "append_section"},
		{"section on replace", []Edit{{Op: OpReplace, Section: "Tasks", Find: "a", Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (replace): section is not used by replace", "replace_section"},
		{"no find", []Edit{{Op: OpReplace, Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (replace): find is required for replace", "exact text"},
		{"find on append", []Edit{{Op: OpAppend, Find: "a", Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (append): find is not used by append", "only for replace"},
		{"expected_matches on append", []Edit{{Op: OpAppend, Content: "x", ExpectedMatches: 2}}, wikierr.CodeInvalidParams, "edits[0] (append): expected_matches is not used by append", "only for replace"},
		{"negative expected_matches", []Edit{{Op: OpReplace, Find: "a", ExpectedMatches: -1}}, wikierr.CodeInvalidParams, "edits[0] (replace): expected_matches is -1", "1 or more"},
		{"no content", []Edit{{Op: OpInsertAfter, Section: "Tasks"}}, wikierr.CodeInvalidParams, "edits[0] (insert_after): content is required for insert_after", "text to add"},
		{"content on delete", []Edit{{Op: OpDeleteSection, Section: "Tasks", Content: "x"}}, wikierr.CodeInvalidParams, "edits[0] (delete_section): content is not used by delete_section", "replace_section"},
		{"find not found", []Edit{{Op: OpReplace, Find: "- z", Content: "x"}}, wikierr.CodeNotFound, "edits[0] (replace): find text not found", "exactly"},
		{"find too often", []Edit{{Op: OpReplace, Find: "- ", Content: "* "}}, wikierr.CodeAmbiguous,
			"edits[0] (replace): find text matches 3 times; expected 1", "it is on lines 6, 7, 10: add surrounding text to find so that it matches once, or set expected_matches to 3"},
		{"find too rarely", []Edit{{Op: OpReplace, Find: "- a", Content: "x", ExpectedMatches: 2}}, wikierr.CodeAmbiguous,
			"edits[0] (replace): find text matches once; expected 2", "it is on line 6"},
		{"section not found", []Edit{{Op: OpAppendSection, Section: "Doing", Content: "x"}}, wikierr.CodeNotFound,
			`edits[0] (append_section): section "Doing" not found; headings: "Title", "Tasks", "Done"`, "never create a heading"},
		{"later edit fails", []Edit{{Op: OpAppend, Content: "x"}, {Op: OpDeleteSection, Section: "Nope"}}, wikierr.CodeNotFound,
			`edits[1] (delete_section): section "Nope" not found; headings: "Title", "Tasks", "Done"`, "Parent/Child"},
		{"heading from a failed edit is gone", []Edit{{Op: OpAppend, Content: "## X"}, {Op: OpReplace, Find: "nope"}, {Op: OpAppendSection, Section: "X", Content: "y"}}, wikierr.CodeNotFound,
			"edits[1] (replace): find text not found", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(base)
			got, err := ApplyEdits(src, tt.edits)
			var e *wikierr.Error
			if !errors.As(err, &e) {
				t.Fatalf("ApplyEdits error = %v, want an *wikierr.Error", err)
			}
			// As a front end that words every reference by its name says them.
			msg, hint := wikierr.Words(nil).Say(e.Message), wikierr.Words(nil).Say(e.Hint)
			if e.Code != tt.wantCode || msg != tt.wantMsg {
				t.Errorf("error = %s: %s\nwant    %s: %s", e.Code, msg, tt.wantCode, tt.wantMsg)
			}
			if !strings.Contains(hint, tt.wantHint) {
				t.Errorf("hint %q does not contain %q", hint, tt.wantHint)
			}
			if !bytes.Equal(got, []byte(base)) || string(src) != base {
				t.Errorf("on error got %q and src %q, want both unchanged", got, src)
			}
		})
	}
}

func TestApplyEdits_ErrorDetails(t *testing.T) {
	_, err := ApplyEdits([]byte(base), []Edit{{Op: OpAppend, Content: "x"}, {Op: OpReplace, Find: "- ", Content: "* "}})
	var e *wikierr.Error
	if !errors.As(err, &e) || !errors.Is(err, wikierr.ErrAmbiguous) {
		t.Fatalf("error = %v, want AMBIGUOUS", err)
	}
	if e.Details["edit"] != 1 || e.Details["matches"] != 3 {
		t.Errorf("details = %v, want edit 1 and 3 matches", e.Details)
	}

	_, err = ApplyEdits([]byte(base), []Edit{{Op: OpDeleteSection, Section: "Nope"}})
	if !errors.As(err, &e) || !errors.Is(err, wikierr.ErrNotFound) {
		t.Fatalf("error = %v, want NOT_FOUND", err)
	}
	if hs, _ := e.Details["headings"].([]string); len(hs) != 3 || e.Details["edit"] != 0 {
		t.Errorf("details = %v, want the 3 headings and edit 0", e.Details)
	}
}
