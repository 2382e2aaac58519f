package gitstore

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// Review notes are git notes under wiki.ReviewNotesRef, read and written by
// the git command itself, under git's own locks, so that they are the
// notes git log --notes, git notes merge and git push know. A notes ref is
// a branch of its own: its commits never touch the wiki's branch, its
// index or its checkout.

// reviewRef is the notes ref, as git notes --ref takes it.
const reviewRef = "--ref=" + wiki.ReviewNotesRef

// ReviewNotes returns the review note of each of commits that has one, by
// commit id. It returns git's message when git fails.
func (s *Store) ReviewNotes(ctx context.Context, commits []string) (map[string]string, error) {
	out := map[string]string{}
	if len(commits) == 0 {
		return out, nil
	}
	list, err := s.runGit(ctx, nil, nil, "notes", reviewRef, "list")
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(commits))
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
	if len(blobs) == 0 {
		return out, nil
	}
	raw, err := s.runGit(ctx, strings.NewReader(strings.Join(blobs, "\n")+"\n"), nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(strings.NewReader(raw))
	for i := range blobs {
		header, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			continue // "<id> missing": a note removed meanwhile
		}
		n, err := strconv.Atoi(f[2])
		if err != nil {
			return nil, fmt.Errorf("git cat-file: %q", header)
		}
		body := make([]byte, n+1) // the content and its "\n"
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, fmt.Errorf("git cat-file: %w", err)
		}
		out[of[i]] = string(body[:n])
	}
	return out, nil
}

// WriteReviewNotes gives each commit of req its note, or removes it, with
// one git notes command each. A failure part way puts the notes ref back
// where it was, unless someone moved it meanwhile. Without req.Replace, a
// commit that has a note fails with CONFLICT.
func (s *Store) WriteReviewNotes(ctx context.Context, req wiki.ReviewNotesRequest) error {
	if len(req.Commits) == 0 {
		return nil
	}
	env := []string{"GIT_AUTHOR_NAME=" + req.By.Name, "GIT_AUTHOR_EMAIL=" + req.By.Email,
		"GIT_COMMITTER_NAME=" + req.By.Name, "GIT_COMMITTER_EMAIL=" + req.By.Email}
	if !req.By.When.IsZero() {
		date := strconv.FormatInt(req.By.When.Unix(), 10) + " " + req.By.When.Format("-0700")
		env = append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	before, _ := s.runGit(ctx, nil, nil, "rev-parse", "--verify", "--quiet", wiki.ReviewNotesRef)
	before = strings.TrimSpace(before)
	for _, id := range req.Commits {
		var err error
		switch {
		case req.Text == "":
			_, err = s.runGit(ctx, nil, env, "notes", reviewRef, "remove", "--ignore-missing", id)
		case req.Replace:
			_, err = s.runGit(ctx, nil, env, "notes", reviewRef, "add", "-f", "-m", req.Text, id)
		default:
			if _, err = s.runGit(ctx, nil, env, "notes", reviewRef, "add", "-m", req.Text, id); err != nil {
				if _, serr := s.runGit(ctx, nil, nil, "notes", reviewRef, "show", id); serr == nil {
					err = wiki.Errorf(wiki.CodeConflict, "commit %s has a review mark already", id)
				}
			}
		}
		if err != nil {
			s.putNotesBack(context.WithoutCancel(ctx), before)
			return err
		}
	}
	return nil
}

// putNotesBack moves the notes ref back to before ("" when it did not
// exist), unless it moved since it was read here.
func (s *Store) putNotesBack(ctx context.Context, before string) {
	now, err := s.runGit(ctx, nil, nil, "rev-parse", "--verify", "--quiet", wiki.ReviewNotesRef)
	if err != nil {
		return
	}
	now = strings.TrimSpace(now)
	if now == before {
		return
	}
	if before == "" {
		_, err = s.runGit(ctx, nil, nil, "update-ref", "-d", wiki.ReviewNotesRef, now)
	} else {
		_, err = s.runGit(ctx, nil, nil, "update-ref", wiki.ReviewNotesRef, before, now)
	}
	if err != nil {
		s.log.Warn("putting the review notes back", "err", err)
	}
}

// repoEnv are the variables that would point git at another repository,
// index or work tree than the store's.
var repoEnv = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_COMMON_DIR=", "GIT_NAMESPACE=", "GIT_NOTES_REF="}

// runGit runs the git command on the repository, never prompting, with env
// added to the process's environment, and returns its standard output.
// Its error holds git's message.
func (s *Store) runGit(ctx context.Context, stdin io.Reader, env []string, args ...string) (string, error) {
	if err := s.check(ctx); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	for _, kv := range os.Environ() {
		if !hasPrefixAny(kv, repoEnv) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, "GIT_DIR="+s.gitDir, "GIT_TERMINAL_PROMPT=0"), env...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("git %s: %v: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

func hasPrefixAny(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
