package wiki

import (
	"bytes"
	"context"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wikid/wikid/internal/note"
)

// DefaultGrepLimit is how many matching lines grep returns unless asked.
const DefaultGrepLimit = 100

// MaxGrepPattern is the longest grep pattern, in bytes: checked before any
// work, as the query language caps its queries.
const MaxGrepPattern = 1000

// maxGrepLine is the longest line grep returns whole; longer lines are cut.
const maxGrepLine = 500

// GrepRequest finds exact lines.
type GrepRequest struct {
	Pattern       string
	Regex         bool
	CaseSensitive bool
	Folder        string
	Limit         int
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path string
	Line int
	Text string
}

// GrepResult lists matching lines in path order.
type GrepResult struct {
	Matches []GrepMatch
	// Truncated is set when more lines matched than the limit.
	Truncated bool
}

// Grep returns the lines of notes at HEAD that contain the pattern (a
// literal, or an RE2 regular expression with Regex). When the search index
// is at HEAD, it reads only the notes that the index cannot rule out: the
// ones whose words contain the pattern's words (or those of the literal
// parts a regular expression requires); otherwise it reads every note
// under the folder. It returns INVALID_PARAMS for an empty pattern, a bad
// regular expression or a negative limit, and INVALID_PATH for a bad
// folder.
func (w *Wiki) Grep(ctx context.Context, req GrepRequest) (*GrepResult, error) {
	match, required, err := grepMatcher(req)
	if err != nil {
		return nil, err
	}
	folder, err := note.CleanFolder(req.Folder)
	if err != nil {
		return nil, err
	}
	limit := req.Limit
	switch {
	case limit < 0:
		return nil, Errorf(CodeInvalidParams, "limit must not be negative")
	case limit == 0:
		limit = DefaultGrepLimit
	}
	head, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	files, narrowed, err := w.grepFiles(ctx, snap, head.Commit, required, folder)
	if err != nil {
		return nil, err
	}
	res := &GrepResult{Matches: []GrepMatch{}}
	defer func(start time.Time) {
		w.log.Debug("grep", "pattern", req.Pattern, "narrowed", narrowed, "read", len(files), "took", time.Since(start))
	}(time.Now())
	for _, file := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		_, content, err := snap.Read(ctx, file)
		if err != nil {
			return nil, err
		}
		p := notePathOf(file)
		for i, line := range bytes.Split(content, []byte("\n")) {
			line = bytes.TrimSuffix(line, []byte("\r"))
			if !match(line) {
				continue
			}
			if len(res.Matches) == limit {
				res.Truncated = true
				return res, nil
			}
			text, _, _, cut := window(line, 0, maxGrepLine)
			if cut {
				text += "... [truncated]"
			}
			res.Matches = append(res.Matches, GrepMatch{Path: p, Line: i + 1, Text: text})
		}
	}
	return res, nil
}

// grepFiles returns the markdown files under folder that a grep reads, in
// path order, and whether the index narrowed them.
func (w *Wiki) grepFiles(ctx context.Context, snap Snapshot, commit string, required []string, folder string) ([]string, bool, error) {
	if paths, ok := w.grepCandidates(ctx, commit, required, folder); ok {
		files, err := w.fold.filesOf(ctx, w.store, snap, paths, folder)
		return files, true, err
	}
	all, err := snap.Files(ctx, folder)
	if err != nil {
		return nil, false, err
	}
	files := make([]string, 0, len(all))
	for _, f := range all {
		if _, _, ok := note.SplitFileName(f.Path); ok {
			files = append(files, f.Path)
		}
	}
	return files, false, nil
}

// grepCandidates returns the note paths under folder that the index cannot
// rule out for the required strings. It reports false when every note must
// be read: the index is not at commit, is being built, or cannot narrow.
func (w *Wiki) grepCandidates(ctx context.Context, commit string, required []string, folder string) ([]string, bool) {
	if len(required) == 0 {
		return nil, false
	}
	if w.indexLane.state().Building {
		return nil, false // reading every note is quicker than waiting
	}
	if err := w.refreshIndex(ctx); err != nil {
		return nil, false
	}
	// Every change of the index happens while its lane is held: holding
	// it, the index stays at commit while it answers.
	if !w.indexLane.lockUnlessBuilding() {
		return nil, false
	}
	defer w.indexLane.release()
	if w.index.Commit() != commit {
		return nil, false
	}
	paths, ok, err := w.index.Containing(ctx, required, folder)
	if err != nil {
		w.log.Warn("grep: search index failed; reading every note", "err", err)
		return nil, false
	}
	return paths, ok
}

// grepMatcher returns the line matcher of a grep, and strings that every
// matching line holds (ignoring case), for the index to narrow the notes.
func grepMatcher(req GrepRequest) (match func([]byte) bool, required []string, err error) {
	if req.Pattern == "" {
		return nil, nil, Errorf(CodeInvalidParams, "pattern is empty")
	}
	if len(req.Pattern) > MaxGrepPattern {
		return nil, nil, Errorf(CodeInvalidParams, "pattern too long: %d bytes, at most %d", len(req.Pattern), MaxGrepPattern).
			WithHint("grep for a shorter part of the text, or search with the query language")
	}
	if req.Regex {
		expr := req.Pattern
		if !req.CaseSensitive {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, nil, Errorf(CodeInvalidParams, "bad regular expression: %v", err).
				WithHint("use RE2 syntax, or {regex_off} to match the text literally")
		}
		required = requiredLiterals(expr)
		return asciiPrefilter(required, re.Match), required, nil
	}
	required = []string{req.Pattern}
	if req.CaseSensitive {
		pat := []byte(req.Pattern)
		return func(line []byte) bool { return bytes.Contains(line, pat) }, required, nil
	}
	pat := []byte(strings.ToLower(req.Pattern))
	return func(line []byte) bool { return bytes.Contains(bytes.ToLower(line), pat) }, required, nil
}

// asciiPrefilter returns match behind a cheaper test: a line of ASCII
// text that lacks one of the ASCII strings, in any case, does not match.
// Lines with other characters go straight to match, because a regular
// expression ignoring case takes some of them for ASCII letters (the
// Kelvin sign for k, the long s for s).
func asciiPrefilter(required []string, match func([]byte) bool) func([]byte) bool {
	var lits [][]byte
	for _, r := range required {
		if isASCII([]byte(r)) {
			lits = append(lits, bytes.ToLower([]byte(r)))
		}
	}
	if len(lits) == 0 {
		return match
	}
	return func(line []byte) bool {
		if isASCII(line) {
			lower := bytes.ToLower(line)
			for _, l := range lits {
				if !bytes.Contains(lower, l) {
					return false
				}
			}
		}
		return match(line)
	}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// requiredLiterals returns literal strings that every match of a regular
// expression holds: the literals of its top-level concatenation, looking
// into groups and into repeats of at least one.
func requiredLiterals(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			out = append(out, string(re.Rune))
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				walk(sub)
			}
		case syntax.OpCapture, syntax.OpPlus:
			walk(re.Sub[0])
		case syntax.OpRepeat:
			if re.Min >= 1 {
				walk(re.Sub[0])
			}
		}
	}
	walk(re)
	return out
}
