package wiki

import (
	"context"
	"math/rand/v2"
	"strings"

	"github.com/wikid/wikid/internal/note"
)

// MaxExcerptChars is how many characters of a note's body a list item or a
// random note carries.
const MaxExcerptChars = 500

// truncatedMark ends a text that was cut.
const truncatedMark = "... [truncated]"

// RandomRequest picks a note at random.
type RandomRequest struct {
	// Tags, if any, restrict the pick to notes with at least one of them
	// (or a tag nested under one).
	Tags []string
}

// RandomResult is the note picked, with the start of its body.
type RandomResult struct {
	NoteSummary
	// Excerpt is the body after the frontmatter, at most MaxExcerptChars
	// characters followed by "... [truncated]" when cut.
	Excerpt   string
	Truncated bool
}

// Random returns a note at HEAD chosen uniformly among those that match.
// It returns NOT_FOUND when none does.
func (w *Wiki) Random(ctx context.Context, req RandomRequest) (*RandomResult, error) {
	_, snap, err := w.head(ctx)
	if err != nil {
		return nil, err
	}
	files, err := snap.Files(ctx, "")
	if err != nil {
		return nil, err
	}
	var candidates []File
	var notes []*note.Note // parallel to candidates when tags filter
	for _, f := range files {
		if _, _, ok := note.SplitFileName(f.Path); !ok {
			continue
		}
		if len(req.Tags) > 0 {
			n, err := w.noteOf(ctx, snap, f)
			if err != nil {
				return nil, err
			}
			if !hasAnyTag(n, req.Tags) {
				continue
			}
			notes = append(notes, n)
		}
		candidates = append(candidates, f)
	}
	if len(candidates) == 0 {
		if len(req.Tags) > 0 {
			return nil, Errorf(CodeNotFound, "no note has any of the tags %s", strings.Join(req.Tags, ", ")).
				WithHint("see the tags in use with {tags}")
		}
		return nil, Errorf(CodeNotFound, "the wiki has no notes yet").WithHint("create one with {write}")
	}
	i := rand.IntN(len(candidates))
	f := candidates[i]
	var n *note.Note
	if notes != nil {
		n = notes[i]
	} else if n, err = w.noteOf(ctx, snap, f); err != nil {
		return nil, err
	}
	res := &RandomResult{NoteSummary: summarize(n, w.itemTimes(ctx, snap.Commit(), []listItem{{file: f}})[f.Path])}
	res.Excerpt, res.Truncated = excerpt(n.Raw[n.BodyStart:], MaxExcerptChars)
	return res, nil
}

func hasAnyTag(n *note.Note, tags []string) bool {
	for _, t := range tags {
		if n.HasTag(t) {
			return true
		}
	}
	return false
}

// excerpt returns body without surrounding blank space, cut to max
// characters and marked when cut.
func excerpt(body []byte, max int) (string, bool) {
	text, _, _, cut := window([]byte(strings.TrimSpace(string(body))), 0, max)
	if cut {
		return text + truncatedMark, true
	}
	return text, false
}
