package wiki

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ReviewNotesRef is the git notes ref that keeps the marks people put on
// commits as they review them: git notes, so that they travel with git
// push and sync, and git log --notes=wikid-review shows them. The store
// reads and writes it; sync exchanges it with remotes.
const ReviewNotesRef = "refs/notes/wikid-review"

// ReviewState is what a mark says of a commit.
type ReviewState string

// The marks.
const (
	Reviewed ReviewState = "reviewed"
	Flagged  ReviewState = "flagged"
)

// ReviewMark is the mark a person put on a commit.
type ReviewMark struct {
	State ReviewState
	// By is who marked it, as "Name <email>".
	By string
	// At is when; zero when the note does not say.
	At time.Time
}

// ReviewNotesRequest changes the review notes of commits: all of them or,
// when one cannot be changed, none.
type ReviewNotesRequest struct {
	// Commits are full commit ids.
	Commits []string
	// Text is the note each commit gets; "" removes their notes.
	Text string
	// Replace lets Text replace a note a commit has. Without it, a commit
	// that has one fails the request with CONFLICT.
	Replace bool
	// By is the author and committer of the notes' commits.
	By Signature
}

// ReviewMarks returns the marks of commits (full ids), by commit id; a
// commit without a mark is left out. A note that sync merged from two
// machines holds a mark of each: the latest counts.
func (w *Wiki) ReviewMarks(ctx context.Context, commits []string) (map[string]ReviewMark, error) {
	notes, err := w.store.ReviewNotes(ctx, commits)
	if err != nil {
		return nil, fmt.Errorf("read the review marks: %w", err)
	}
	out := make(map[string]ReviewMark, len(notes))
	for id, n := range notes {
		if m := parseReviewNote(n); m.State != "" {
			out[id] = m
		}
	}
	return out, nil
}

// ReviewRequest marks commits, or clears their marks.
type ReviewRequest struct {
	// Commits are revisions: full or short shas, HEAD~N.
	Commits []string
	// State is the mark; "" clears the commits' marks.
	State ReviewState
	// By is who marks: the mark names them.
	By Identity
	// Replace lets the mark replace one a commit has. Without it, a
	// commit that has one refuses the whole request, with CONFLICT.
	Replace bool
}

// Review marks commits, or clears their marks, all or none: a commit that
// does not resolve or, without Replace, has a mark already refuses the
// whole request, and a failure part way takes the marks made back. The
// marks are git notes under ReviewNotesRef, not commits of the branch. It
// returns INVALID_PARAMS (no commit, an unknown state, nobody in By),
// NOT_FOUND (no such commit), AMBIGUOUS (a short sha matching several
// commits), CONFLICT (a commit marked already) and READ_ONLY.
func (w *Wiki) Review(ctx context.Context, req ReviewRequest) error {
	if w.opts.ReadOnly {
		return Errorf(CodeReadOnly, "the wiki is read-only, so nothing can be marked").
			WithHint("restart wikid without {read_only} to allow changes")
	}
	switch {
	case len(req.Commits) == 0:
		return Errorf(CodeInvalidParams, "no commit to mark")
	case req.State != "" && req.State != Reviewed && req.State != Flagged:
		return Errorf(CodeInvalidParams, "mark %q: want %s or %s", req.State, Reviewed, Flagged)
	case req.By.Name == "" || req.By.Email == "":
		return Errorf(CodeInvalidParams, "nobody to record the mark as: a name and an email are needed")
	}
	ids := make([]string, len(req.Commits))
	for i, rev := range req.Commits {
		id, err := w.resolve(ctx, rev)
		if errors.Is(err, ErrNotFound) {
			return Errorf(CodeNotFound, "no commit %q; nothing was marked", rev)
		}
		if err != nil {
			return err
		}
		ids[i] = id
	}
	now := w.opts.Now()
	text := ""
	if req.State != "" {
		text = fmt.Sprintf("%s by %s <%s> at %s", req.State, req.By.Name, req.By.Email, now.UTC().Format(time.RFC3339))
		if !req.Replace {
			marks, err := w.ReviewMarks(ctx, ids)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if m, ok := marks[id]; ok {
					e := Errorf(CodeConflict, "commit %s is already marked %s by %s; nothing was marked", shortID(id), m.State, m.By)
					e.Details = map[string]any{"commit": id, "state": string(m.State), "by": m.By}
					return e
				}
			}
		}
	}
	err := w.store.WriteReviewNotes(ctx, ReviewNotesRequest{Commits: ids, Text: text, Replace: req.Replace || text == "",
		By: Signature{Name: req.By.Name, Email: req.By.Email, When: now}})
	if err != nil {
		return fmt.Errorf("write the review marks: %w", err)
	}
	return nil
}

// parseReviewNote reads a review note, "reviewed by Name <email> at
// 2026-11-25T06:00:00Z", a line a mark; the latest mark counts.
func parseReviewNote(n string) ReviewMark {
	var latest ReviewMark
	for _, line := range strings.Split(strings.TrimSpace(n), "\n") {
		state, rest, _ := strings.Cut(strings.TrimSpace(line), " by ")
		by, at, _ := strings.Cut(rest, " at ")
		m := ReviewMark{State: ReviewState(state), By: by}
		if m.State == "" {
			continue
		}
		m.At, _ = time.Parse(time.RFC3339, strings.TrimSpace(at))
		if latest.State == "" || m.At.After(latest.At) {
			latest = m
		}
	}
	return latest
}
