package gitsync

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// The network side of a sync runs the git command, so that it reaches a
// remote exactly as the person's own git does: the same remotes and
// insteadOf rewrites, credential helpers, ~/.ssh/config, the SSH agent and
// known_hosts, proxies. git never prompts: without credentials it fails,
// and the failure is reported without any secret in it. The same command
// reads what is the remote's business (the branch's upstream in git's
// configuration, the remote-tracking refs it moves, how far they are
// apart) and the few questions of history the store has no answer for (a
// range of commits, the last commit to touch a path in it, where a reflog
// lives); the commits and trees themselves are read through the wiki.

// TokenEnv names the environment variable that may hold a token for HTTPS
// remotes (a personal access token of GitHub, GitLab, Gitea...): git sends
// it as the password of basic authentication, with the user name
// x-access-token, instead of asking a credential helper.
const TokenEnv = "WIKID_SYNC_TOKEN"

// ErrRejected is returned by push when the remote branch has moved on.
var ErrRejected = errors.New("push rejected: the remote branch has commits this side lacks")

// Upstream is where a branch syncs: a remote and the branch on it.
type Upstream struct {
	Remote string // "origin"
	Branch string // "main", without refs/heads/
}

func (u Upstream) String() string { return u.Remote + "/" + u.Branch }

// tracking is the remote-tracking ref of the upstream branch.
func (u Upstream) tracking() string { return "refs/remotes/" + u.Remote + "/" + u.Branch }

// git runs git in dir with no prompt allowed and returns its standard
// output. Its error holds git's message, with any password or token in a
// URL taken out.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never", "GIT_ASKPASS=", "SSH_ASKPASS=")
	if token := os.Getenv(TokenEnv); token != "" {
		// Through git's environment, not its arguments, which other users
		// can read.
		auth := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
		cmd.Env = append(cmd.Env, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=http.extraHeader",
			"GIT_CONFIG_VALUE_0=Authorization: Basic "+auth)
	}
	// ssh asks for a passphrase or a new host key on the terminal; in a
	// session of its own git has none, and with no askpass either ssh
	// fails instead. That keeps the person's ssh command (core.sshCommand,
	// GIT_SSH_COMMAND) as it is, where setting BatchMode would replace it.
	cmd.Env = append(cmd.Env, "SSH_ASKPASS_REQUIRE=never")
	cmd.SysProcAttr = noTerminal()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		msg := strings.TrimSpace(Redact(stderr.String()))
		if msg == "" {
			msg = err.Error()
		}
		e := wiki.Errorf(wiki.CodeInternal, "git %s: %s", args[0], msg)
		if hint := hintFor(msg); hint != "" {
			e = e.WithHint("%s", hint)
		}
		return "", e
	}
	return stdout.String(), nil
}

// userinfo matches the user and password of a URL.
var userinfo = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@\s]+@`)

// Redact takes the user name and password out of every URL in s.
func Redact(s string) string { return userinfo.ReplaceAllString(s, "$1") }

// upstream returns the upstream of the branch HEAD is on: its configured
// remote and merge branch, else "origin" and the same branch name when
// origin exists. It returns INVALID_PARAMS when there is none.
func upstream(ctx context.Context, dir, branch string) (Upstream, error) {
	name := wiki.BranchName(branch)
	remote, _ := git(ctx, dir, "config", "--get", "branch."+name+".remote")
	merge, _ := git(ctx, dir, "config", "--get", "branch."+name+".merge")
	u := Upstream{Remote: strings.TrimSpace(remote), Branch: strings.TrimPrefix(strings.TrimSpace(merge), "refs/heads/")}
	if u.Remote == "" {
		if _, err := git(ctx, dir, "config", "--get", "remote.origin.url"); err == nil {
			u = Upstream{Remote: "origin", Branch: name}
		}
	}
	if u.Remote == "" || u.Remote == "." {
		return u, wiki.Errorf(wiki.CodeInvalidParams, "branch %s has no remote to sync with", name).
			WithHint("add one: git remote add origin URL && git push -u origin %s", name)
	}
	if u.Branch == "" {
		u.Branch = name
	}
	return u, nil
}

// fetch fetches the upstream branch into its remote-tracking ref. It
// returns false when the remote has no such branch yet.
func fetch(ctx context.Context, dir string, u Upstream) (bool, error) {
	if _, err := git(ctx, dir, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", u.Remote,
		"+refs/heads/"+u.Branch+":"+u.tracking()); err != nil {
		if strings.Contains(err.Error(), "couldn't find remote ref") {
			return false, nil // the first push makes it
		}
		return false, err
	}
	return true, nil
}

// push pushes commit to the upstream branch, only as a fast-forward of what
// the remote has. It returns ErrRejected when the remote moved on.
func push(ctx context.Context, dir, commit string, u Upstream) error {
	_, err := git(ctx, dir, "push", u.Remote, commit+":refs/heads/"+u.Branch)
	if err != nil {
		msg := err.Error()
		// The remote branch moved on before the push (rejected), or while
		// it ran (the remote could not update or lock the ref).
		for _, moved := range []string{"[rejected]", "non-fast-forward", "fetch first", "failed to update ref", "cannot lock ref", "failed to lock"} {
			if strings.Contains(msg, moved) {
				return ErrRejected
			}
		}
		return err
	}
	// Keep the remote-tracking ref in step, as git push does.
	_, _ = git(ctx, dir, "update-ref", u.tracking(), commit)
	return nil
}

// hintFor says what to do about a failure git reported.
func hintFor(msg string) string {
	m := strings.ToLower(msg)
	switch {
	case strings.Contains(m, "authentication") || strings.Contains(m, "could not read username") ||
		strings.Contains(m, "permission denied") || strings.Contains(m, "403"):
		return "git could not sign in to the remote: check the credentials git uses for it (a credential helper, an SSH key); git fetch in the repository shows the same"
	case strings.Contains(m, "host key verification failed"):
		return "the remote's SSH host key is not in known_hosts, or has changed: connect once with ssh to check and accept it"
	case strings.Contains(m, "could not resolve host") || strings.Contains(m, "connection refused") ||
		strings.Contains(m, "timed out") || strings.Contains(m, "network is unreachable") || strings.Contains(m, "failed to connect"):
		return "the remote cannot be reached; sync again when the network is back"
	}
	return ""
}
