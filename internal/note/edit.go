package note

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/wikid/wikid/internal/wikierr"
)

// Edit is one edit operation; see the Op constants.
type Edit struct {
	Op              string
	Content         string
	Find            string
	Section         string
	ExpectedMatches int // 0 means 1; only for replace
}

// The edit operations. Where each puts its content is described at
// ApplyEdits.
const (
	OpAppend         = "append"
	OpPrepend        = "prepend"
	OpReplace        = "replace"
	OpAppendSection  = "append_section"
	OpPrependSection = "prepend_section"
	OpReplaceSection = "replace_section"
	OpInsertBefore   = "insert_before"
	OpInsertAfter    = "insert_after"
	OpDeleteSection  = "delete_section"
)

// ops lists the operations in the order the error hints name them.
var ops = []string{
	OpAppend, OpPrepend, OpReplace, OpAppendSection, OpPrependSection,
	OpReplaceSection, OpInsertBefore, OpInsertAfter, OpDeleteSection,
}

// maxListedLines is how many line numbers an ambiguous find names.
const maxListedLines = 10

// ApplyEdits applies edits in order to the note src (re-parsing between
// edits) and returns the new bytes. All or nothing: on any error src is not
// changed and the error says which edit (index, op) failed.
//
// The operations, where a section is found with Note.Section and spans
// from its heading to the next heading of the same or a higher level, its
// subsections included (as in Cairn's section ops):
//   - append: content at the end of the body;
//   - prepend: content at the top of the body, after the frontmatter;
//   - replace: every occurrence of find, a literal text that must occur
//     exactly ExpectedMatches times (default 1), becomes content;
//   - append_section: content at the end of the section, so after its
//     subsections when it has some;
//   - prepend_section: content at the start of the section, after the
//     heading line;
//   - replace_section: content replaces what is under the heading, the
//     subsections included; the heading line stays; empty content empties
//     the section;
//   - insert_before: content on the lines just before the heading line;
//   - insert_after: content after the whole section, just before the next
//     heading of the same or a higher level (or at the end of the note);
//   - delete_section: the heading and its section, subsections included,
//     are removed.
//
// Blank lines: content goes in as whole lines with exactly one line ending
// between it and its neighbours; blank lines are never added or removed
// around it, except where a setext underline would otherwise join a
// paragraph (content starting with "---" under a text line, or content
// ending right above a setext heading or a "---" line), which gets one
// blank line. Blank lines that open or close a section or the body stay
// where they are: append and append_section insert after the last
// non-blank line, prepend and prepend_section before the first one, and
// replace_section keeps them around its content. To separate paragraphs,
// start or end content with an empty line. A missing final line ending is
// added to content; its line endings become the note's (CRLF notes stay
// CRLF), and so do those of find. Bytes outside the edited range never
// change.
//
// Errors, all *Error: CodeInvalidParams for an empty edits list, an unknown
// op, a missing field (section for the section ops, find for replace,
// content for the inserting ops) or a field the op does not use (but
// expected_matches 1, the default, goes with any op);
// CodeNotFound and CodeAmbiguous from Note.Section (section ops never
// create a heading) and for a find text not found or found another number
// of times than expected. On error it returns src itself.
func ApplyEdits(src []byte, edits []Edit) ([]byte, error) {
	if len(edits) == 0 {
		return src, wikierr.Errorf(wikierr.CodeInvalidParams, "edits is empty").WithHint("give at least one edit operation")
	}
	out := src
	for i, e := range edits {
		next, err := applyEdit(out, e)
		if err != nil {
			return src, editError(i, e.Op, err)
		}
		out = next
	}
	return out, nil
}

// applyEdit applies one edit to src, returning new bytes and never
// changing src.
func applyEdit(src []byte, e Edit) ([]byte, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	n := Parse("", src)
	le := lineEnding(src)
	content := withLineEnding(e.Content, le)
	switch e.Op {
	case OpAppend:
		_, end, ok := nonBlankRange(src, n.BodyStart, len(src))
		if !ok {
			end = n.BodyStart
		}
		return n.splice(end, end, content, le), nil
	case OpPrepend:
		start, _, ok := nonBlankRange(src, n.BodyStart, len(src))
		if !ok {
			start = n.BodyStart
		}
		return n.splice(start, start, content, le), nil
	case OpReplace:
		return replaceText(src, withLineEnding(e.Find, le), content, max(e.ExpectedMatches, 1))
	}

	h, err := n.Section(e.Section)
	if err != nil {
		var se *wikierr.Error
		if errors.As(err, &se) && se.Code == wikierr.CodeNotFound {
			se.Hint += `; section edits never create a heading: to add one, append a line like "## Name" first`
		}
		return nil, err
	}
	start, end, ok := nonBlankRange(src, h.ContentStart, h.End)
	if !ok {
		start, end = h.ContentStart, h.ContentStart
	}
	switch e.Op {
	case OpAppendSection:
		return n.splice(end, end, content, le), nil
	case OpPrependSection:
		return n.splice(start, start, content, le), nil
	case OpReplaceSection:
		if content == "" && ok {
			// The blank lines after the old content go too, so the
			// heading is not left above two runs of blank lines.
			end = h.End
		}
		return n.splice(start, end, content, le), nil
	case OpInsertBefore:
		return n.splice(h.Start, h.Start, content, le), nil
	case OpInsertAfter:
		return n.splice(h.End, h.End, content, le), nil
	default: // OpDeleteSection
		return n.splice(h.Start, h.End, "", le), nil
	}
}

// validate checks that e has the fields its op needs and none it ignores.
func (e Edit) validate() error {
	if e.Op == "" {
		return wikierr.Errorf(wikierr.CodeInvalidParams, "op is required").WithHint("use one of %s", strings.Join(ops, ", "))
	}
	if !slices.Contains(ops, e.Op) {
		return wikierr.Errorf(wikierr.CodeInvalidParams, "unknown op %q", e.Op).WithHint("use one of %s", strings.Join(ops, ", "))
	}
	sectionOp := e.Op != OpAppend && e.Op != OpPrepend && e.Op != OpReplace
	switch {
	case sectionOp && normHeading(e.Section) == "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "section is required for %s", e.Op).
			WithHint("give the text of the heading, without the '#' marks")
	case !sectionOp && e.Section != "" && e.Op == OpReplace:
		return wikierr.Errorf(wikierr.CodeInvalidParams, "section is not used by replace").
			WithHint("replace looks for find in the whole note; leave section out, or use replace_section")
	case !sectionOp && e.Section != "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "section is not used by %s", e.Op).
			WithHint("to add to a section use %s_section", e.Op)
	case e.Op == OpReplace && e.Find == "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "find is required for replace").
			WithHint("give the exact text to replace, copied from the note")
	case e.Op != OpReplace && e.Find != "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "find is not used by %s", e.Op).WithHint("find is only for replace")
	case e.Op != OpReplace && e.ExpectedMatches != 0 && e.ExpectedMatches != 1:
		// 1 is the default, which a caller may well send with every op.
		return wikierr.Errorf(wikierr.CodeInvalidParams, "{expected_matches} is not used by %s", e.Op).
			WithHint("{expected_matches} is only for replace")
	case e.ExpectedMatches < 0:
		return wikierr.Errorf(wikierr.CodeInvalidParams, "{expected_matches} is %d", e.ExpectedMatches).
			WithHint("{expected_matches} counts the occurrences of find: 1 or more, or leave it out for 1")
	case e.Op == OpDeleteSection && e.Content != "":
		return wikierr.Errorf(wikierr.CodeInvalidParams, "content is not used by delete_section").
			WithHint("to replace what is under the heading use replace_section")
	case e.Content == "" && e.Op != OpReplace && e.Op != OpReplaceSection && e.Op != OpDeleteSection:
		return wikierr.Errorf(wikierr.CodeInvalidParams, "content is required for %s", e.Op).WithHint("give the text to add")
	}
	return nil
}

// replaceText replaces every occurrence of find in src with content, if
// there are exactly want of them.
func replaceText(src []byte, find, content string, want int) ([]byte, error) {
	f := []byte(find)
	var lines []int
	count, line, last := 0, 1, 0
	for i := 0; ; {
		k := bytes.Index(src[i:], f)
		if k < 0 {
			break
		}
		count++
		if len(lines) < maxListedLines {
			line += bytes.Count(src[last:i+k], []byte("\n"))
			last = i + k
			lines = append(lines, line)
		}
		i += k + len(f)
	}
	switch {
	case count == 0:
		return nil, wikierr.Errorf(wikierr.CodeNotFound, "find text not found").
			WithHint("find must match the note exactly, spaces and line breaks included: read the note and copy the text")
	case count != want:
		where := "line " + joinInts(lines)
		if len(lines) > 1 {
			where = "lines " + joinInts(lines)
		}
		if count > len(lines) {
			where += ", ..."
		}
		e := wikierr.Errorf(wikierr.CodeAmbiguous, "find text matches %s; expected %d", times(count), want).
			WithHint("it is on %s: add surrounding text to find so that it matches %s{(, or set {expected_matches} to %d to replace every one)}",
				where, times(want), count)
		e.Details = map[string]any{"matches": count, "lines": lines}
		return nil, e
	}
	return bytes.ReplaceAll(src, f, []byte(content)), nil
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// editError prefixes the message of err with the edit's index and op, and
// records the index in its details. The prefix is an optional part (see
// wikierr.Sayf): a front end that takes one edit at a time, and words
// {edits} as "", leaves it out.
func editError(i int, op string, err error) error {
	at := fmt.Sprintf("[%d]", i)
	if slices.Contains(ops, op) {
		at += " (" + op + ")"
	}
	what := wikierr.Sayf("{({edits}%s: )}", at)
	var e *wikierr.Error
	if !errors.As(err, &e) {
		return fmt.Errorf("%s%w", what, err)
	}
	out := *e
	out.Message = what + e.Message
	out.Details = maps.Clone(e.Details)
	if out.Details == nil {
		out.Details = map[string]any{}
	}
	out.Details["edit"] = i
	return &out
}
