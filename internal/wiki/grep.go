package wiki

import (
	"bytes"
	"context"
	"regexp"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// DefaultGrepLimit is how many matching lines grep returns unless asked.
const DefaultGrepLimit = 100

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
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// GrepResult lists matching lines in path order.
type GrepResult struct {
	Matches []GrepMatch `json:"matches"`
	// Truncated is set when more lines matched than the limit.
	Truncated bool `json:"truncated,omitempty"`
}

// Grep returns the lines of notes at HEAD that contain the pattern (a
// literal, or an RE2 regular expression with Regex). It reads every note
// under the folder: the search index cannot narrow a substring match
// without changing its results. It returns INVALID_PARAMS for an empty
// pattern, a bad regular expression or a negative limit, and INVALID_PATH
// for a bad folder.
func (w *Wiki) Grep(ctx context.Context, req GrepRequest) (*GrepResult, error) {
	match, err := grepMatcher(req)
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
		return nil, note.Errorf(note.CodeInvalidParams, "limit must not be negative")
	case limit == 0:
		limit = DefaultGrepLimit
	}
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx, folder)
	if err != nil {
		return nil, err
	}
	res := &GrepResult{Matches: []GrepMatch{}}
	for _, f := range files {
		p, _, ok := note.SplitFileName(f.Path)
		if !ok {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		_, content, err := snap.Read(ctx, f.Path)
		if err != nil {
			return nil, err
		}
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

func grepMatcher(req GrepRequest) (func([]byte) bool, error) {
	if req.Pattern == "" {
		return nil, note.Errorf(note.CodeInvalidParams, "pattern is empty")
	}
	if req.Regex {
		expr := req.Pattern
		if !req.CaseSensitive {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, note.Errorf(note.CodeInvalidParams, "bad regular expression: %v", err).
				WithHint("use RE2 syntax, or set regex: false to match the text literally")
		}
		return re.Match, nil
	}
	if req.CaseSensitive {
		pat := []byte(req.Pattern)
		return func(line []byte) bool { return bytes.Contains(line, pat) }, nil
	}
	pat := []byte(strings.ToLower(req.Pattern))
	return func(line []byte) bool { return bytes.Contains(bytes.ToLower(line), pat) }, nil
}
