package gitnotes

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// Notes is a notes ref of a repository.
type Notes struct {
	GitDir string // the repository's git directory
	Ref    string // the notes ref, "refs/notes/..."
	// Log, when not nil, is told of a notes ref that could not be put
	// back after a failed Write.
	Log *slog.Logger
}

// Write gives each of commits the note text, or removes their notes when
// text is "", with one git notes command each, by (author and committer of
// the notes' commits). A failure part way puts the notes ref back where it
// was, unless someone moved it meanwhile. Without replace, a commit that
// has a note fails the write with an *ExistsError. It returns git's
// message when git fails.
func (n Notes) Write(ctx context.Context, commits []string, text string, replace bool, by gitformat.Signature) error {
	if len(commits) == 0 {
		return nil
	}
	env := []string{"GIT_AUTHOR_NAME=" + by.Name, "GIT_AUTHOR_EMAIL=" + by.Email,
		"GIT_COMMITTER_NAME=" + by.Name, "GIT_COMMITTER_EMAIL=" + by.Email}
	if !by.When.IsZero() {
		date := strconv.FormatInt(by.When.Unix(), 10) + " " + by.When.Format("-0700")
		env = append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	before, _ := n.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", n.Ref)
	before = strings.TrimSpace(before)
	for _, id := range commits {
		var err error
		switch {
		case text == "":
			_, err = n.git(ctx, nil, env, "notes", n.refArg(), "remove", "--ignore-missing", id)
		case replace:
			_, err = n.git(ctx, nil, env, "notes", n.refArg(), "add", "-f", "-m", text, id)
		default:
			if _, err = n.git(ctx, nil, env, "notes", n.refArg(), "add", "-m", text, id); err != nil {
				if _, serr := n.git(ctx, nil, nil, "notes", n.refArg(), "show", id); serr == nil {
					err = &ExistsError{Commit: id}
				}
			}
		}
		if err != nil {
			n.putBack(context.WithoutCancel(ctx), before)
			return err
		}
	}
	return nil
}

// ExistsError is returned by Write when a commit has a note and it was not
// asked to replace it.
type ExistsError struct {
	Commit string
}

func (e *ExistsError) Error() string { return "commit " + e.Commit + " has a note already" }

// putBack moves the notes ref back to before ("" when it did not exist),
// unless it moved since it was read here.
func (n Notes) putBack(ctx context.Context, before string) {
	now, err := n.git(ctx, nil, nil, "rev-parse", "--verify", "--quiet", n.Ref)
	if err != nil {
		return
	}
	now = strings.TrimSpace(now)
	if now == before {
		return
	}
	if before == "" {
		_, err = n.git(ctx, nil, nil, "update-ref", "-d", n.Ref, now)
	} else {
		_, err = n.git(ctx, nil, nil, "update-ref", n.Ref, before, now)
	}
	if err != nil && n.Log != nil {
		n.Log.Warn("putting the notes back", "ref", n.Ref, "err", err)
	}
}

// repoEnv are the variables that would point git at another repository,
// index or work tree than the store's.
var repoEnv = []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES=", "GIT_COMMON_DIR=", "GIT_NAMESPACE=", "GIT_NOTES_REF="}

// refArg is the notes ref as git notes --ref takes it.
func (n Notes) refArg() string { return "--ref=" + n.Ref }

// git runs the git command on the repository, never prompting, with env
// added to the process's environment, and returns its standard output.
// Its error holds git's message.
func (n Notes) git(ctx context.Context, stdin io.Reader, env []string, args ...string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	cmd := exec.CommandContext(ctx, "git", args...)
	for _, kv := range os.Environ() {
		if !hasPrefixAny(kv, repoEnv) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(append(cmd.Env, "GIT_DIR="+n.GitDir, "GIT_TERMINAL_PROMPT=0"), env...)
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
