package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// Review marks live in git itself, as notes under reviewRef, so that they
// travel with git push and sync and git log --notes=wikid-review shows
// them. A note reads "reviewed by Name <email> at <RFC 3339 time>" (or
// "flagged ..."). git's own commands write them, under git's locks.
const reviewRef = "refs/notes/wikid-review"

// A mark is the review state of a commit.
type mark struct {
	State string // reviewed or flagged
	By    string
	At    string
}

// git runs git on the wiki's repository with env added, and returns its
// standard output.
func (h *Handler) git(ctx context.Context, stdin io.Reader, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(append(os.Environ(), "GIT_DIR="+gitDir(h.w), "GIT_TERMINAL_PROMPT=0"), env...)
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func gitDir(w *wiki.Wiki) string {
	if g, ok := w.Store().(interface{ GitDir() string }); ok {
		return g.GitDir()
	}
	return "."
}

// marks returns the review marks of commits, by commit id.
func (h *Handler) marks(ctx context.Context, commits []string) (map[string]mark, error) {
	list, err := h.git(ctx, nil, nil, "notes", "--ref="+reviewRef, "list")
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, c := range commits {
		want[c] = true
	}
	var blobs, of []string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		blob, commit, ok := strings.Cut(line, " ")
		if ok && want[commit] {
			blobs, of = append(blobs, blob), append(of, commit)
		}
	}
	out := map[string]mark{}
	if len(blobs) == 0 {
		return out, nil
	}
	raw, err := h.git(ctx, strings.NewReader(strings.Join(blobs, "\n")+"\n"), nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(strings.NewReader(raw))
	for i := range blobs {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return nil, fmt.Errorf("git cat-file: %q", header)
		}
		n, _ := strconv.Atoi(f[2])
		body := make([]byte, n+1)
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, err
		}
		out[of[i]] = parseMark(string(body[:n]))
	}
	return out, nil
}

// parseMark reads "reviewed by Name <email> at 2026-11-25T06:00:00Z". A
// note that sync merged from two machines has a line for each mark; the
// latest wins.
func parseMark(note string) mark {
	var latest mark
	for _, line := range strings.Split(strings.TrimSpace(note), "\n") {
		state, rest, _ := strings.Cut(strings.TrimSpace(line), " by ")
		by, at, _ := strings.Cut(rest, " at ")
		if m := (mark{State: state, By: by, At: at}); latest.State == "" || m.At > latest.At {
			latest = m
		}
	}
	return latest
}

// review marks a commit reviewed or flagged, or clears its mark.
func (h *Handler) review(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be marked")
		return
	}
	id, _, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	who, ok := h.actor(w, r)
	if !ok {
		return
	}
	var err error
	env := []string{"GIT_AUTHOR_NAME=" + who.Name, "GIT_AUTHOR_EMAIL=" + who.Email, "GIT_COMMITTER_NAME=" + who.Name, "GIT_COMMITTER_EMAIL=" + who.Email}
	switch state := r.PostFormValue("state"); state {
	case "reviewed", "flagged":
		text := fmt.Sprintf("%s by %s <%s> at %s", state, who.Name, who.Email, time.Now().UTC().Format(time.RFC3339))
		_, err = h.git(r.Context(), nil, env, "notes", "--ref="+reviewRef, "add", "-f", "-m", text, id)
	case "clear":
		_, err = h.git(r.Context(), nil, env, "notes", "--ref="+reviewRef, "remove", "--ignore-missing", id)
	default:
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "state %q: want reviewed, flagged or clear", state))
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/commit/"+id, http.StatusSeeOther)
}

// maxReviewAll bounds the commits one review-all form marks: a session
// on one page of the timeline has at most changesLimit.
const maxReviewAll = 100

// reviewAll marks reviewed every commit a session's form lists (commit,
// repeated), all or none: a commit that does not resolve or already has a
// mark refuses the whole form, and a failure part way takes the marks made
// back. It returns to the timeline (back, its query).
func (h *Handler) reviewAll(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be marked")
		return
	}
	if state := r.PostFormValue("state"); state != "reviewed" {
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "state %q: a session can only be marked reviewed", state))
		return
	}
	shas := r.PostForm["commit"]
	if len(shas) == 0 || len(shas) > maxReviewAll {
		h.fail(w, r, wiki.Errorf(wiki.CodeInvalidParams, "%d commits: mark 1 to %d at a time; nothing was marked", len(shas), maxReviewAll))
		return
	}
	ids := make([]string, len(shas))
	for i, sha := range shas {
		id, err := h.w.Store().ResolveRevision(r.Context(), sha)
		if err != nil {
			h.fail(w, r, wiki.Errorf(wiki.CodeNotFound, "no commit %q: nothing was marked", sha))
			return
		}
		ids[i] = id
	}
	marks, err := h.marks(r.Context(), ids)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	for _, id := range ids {
		if m, ok := marks[id]; ok {
			h.refuse(w, r, http.StatusConflict, fmt.Sprintf("commit %.10s is already marked %s by %s: reload the page; nothing was marked", id, m.State, m.By))
			return
		}
	}
	who, ok := h.actor(w, r)
	if !ok {
		return
	}
	env := []string{"GIT_AUTHOR_NAME=" + who.Name, "GIT_AUTHOR_EMAIL=" + who.Email, "GIT_COMMITTER_NAME=" + who.Name, "GIT_COMMITTER_EMAIL=" + who.Email}
	before, _ := h.git(r.Context(), nil, nil, "rev-parse", "--verify", "--quiet", reviewRef)
	before = strings.TrimSpace(before)
	text := fmt.Sprintf("reviewed by %s <%s> at %s", who.Name, who.Email, time.Now().UTC().Format(time.RFC3339))
	for _, id := range ids {
		// No -f: a mark made meanwhile fails the form rather than being
		// overwritten.
		if _, err := h.git(r.Context(), nil, env, "notes", "--ref="+reviewRef, "add", "-m", text, id); err != nil {
			h.unmark(r.Context(), before)
			h.fail(w, r, fmt.Errorf("mark %s reviewed: %w", id, err))
			return
		}
	}
	back := r.PostFormValue("back")
	if !strings.HasPrefix(back, "?") || strings.ContainsAny(back, "\r\n") {
		back = ""
	}
	http.Redirect(w, r, "/"+back, http.StatusSeeOther)
}

// unmark takes the review notes back to before, as they were before a
// form that failed part way, unless someone marked a commit since.
func (h *Handler) unmark(ctx context.Context, before string) {
	ctx = context.WithoutCancel(ctx)
	now, err := h.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", reviewRef)
	if err != nil {
		return
	}
	now = strings.TrimSpace(now)
	if before == "" {
		_, err = h.git(ctx, nil, nil, "update-ref", "-d", reviewRef, now)
	} else {
		_, err = h.git(ctx, nil, nil, "update-ref", reviewRef, before, now)
	}
	if err != nil {
		h.opts.Logger.ErrorContext(ctx, "taking review marks back", "err", err)
	}
}

// revertPage previews the revert of a commit, or shows why it cannot be.
type revertPage struct {
	Commit   string
	Subject  string
	Summary  string
	Risk     string
	Files    []fileDiff
	Conflict string
	CSRF     string
	// Reviewer is who the undo would be by; NoReviewer, why nobody.
	Reviewer, NoReviewer string
}

// revert previews the revert of a commit as a diff, with a button to make
// it; with confirm set, it makes it, as one commit by the reviewer through
// the same core as revert_change. A conflict is shown and nothing is
// committed.
func (h *Handler) revert(w http.ResponseWriter, r *http.Request) {
	if h.opts.ReadOnly {
		h.refuse(w, r, http.StatusForbidden, "this wiki is served read-only: nothing can be undone")
		return
	}
	_, info, ok := h.commitOf(w, r)
	if !ok {
		return
	}
	subject, _, _ := splitMessage(info.Message)
	caller := wiki.Caller{Client: client, Tool: "revert_change"}
	confirm := r.PostFormValue("confirm") == "yes"
	if confirm {
		if caller.Author, ok = h.actor(w, r); !ok {
			return
		}
	}
	res, err := h.w.Revert(r.Context(), wiki.RevertRequest{Commit: info.ID, Mutation: wiki.Mutation{DryRun: !confirm, Caller: caller}})
	var e *wiki.Error
	if errors.As(err, &e) && e.Code == wiki.CodeConflict {
		w.WriteHeader(http.StatusConflict)
		h.render(w, r, "revert.html", revertPage{Commit: info.ID, Subject: subject, Conflict: e.Message + " " + e.Hint})
		return
	}
	if err != nil {
		h.fail(w, r, err)
		return
	}
	if confirm {
		http.Redirect(w, r, "/commit/"+res.Commit, http.StatusSeeOther)
		return
	}
	page := revertPage{Commit: info.ID, Subject: subject, Summary: res.Summary, Risk: res.Risk,
		Files: parseUnified(res.Diff), CSRF: h.csrf(r)}
	page.Reviewer, page.NoReviewer = h.reviewerLine()
	h.render(w, r, "revert.html", page)
}
