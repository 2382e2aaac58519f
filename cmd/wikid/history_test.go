package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
	"github.com/wikid/wikid/internal/wiki"
)

// historyRepo is a checkout whose history was made by git and by the
// wikid command line: a seed, an edit, a rename outside wikid and an edit
// after it.
func historyRepo(t *testing.T) string {
	t.Helper()
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n\none\ntwo\nthree\n", "b.md": "# B\n"})
	runOK(t, dir, "", "edit", "--op", "append", "--content", "four", "a")
	gittest.Git(t, dir, "mv", "a.md", "renamed.md")
	gittest.Commit(t, dir, "rename a", nil)
	runOK(t, dir, "# A\n\nONE\ntwo\nthree\n\nfour\n", "write", "--overwrite", "renamed")
	return dir
}

// runOK runs wikid with --repo dir in the arguments and returns its
// output; it fails the test on an error.
func runOK(t *testing.T, dir, stdin string, args ...string) string {
	t.Helper()
	out, err := runIn(t, dir, stdin, args...)
	if err != nil {
		t.Fatalf("wikid %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// runIn runs wikid with --repo dir after the subcommand.
func runIn(t *testing.T, dir, stdin string, args ...string) (string, error) {
	t.Helper()
	e, stdout, stderr := testEnv(stdin, map[string]string{"WIKID_REPO": dir})
	err := run(context.Background(), e, args)
	if err != nil {
		t.Logf("stderr: %s", stderr)
	}
	return stdout.String(), err
}

func TestHistoryCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	want := gitLines(t, dir, "log", "--follow", "--format=%H", "--", "renamed.md")
	var res wiki.HistoryResult
	if err := json.Unmarshal([]byte(runOK(t, dir, "", "history", "--json", "renamed")), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Revisions {
		got = append(got, r.Commit)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("history --json: %v, want %v", got, want)
	}
	out := runOK(t, dir, "", "history", "renamed")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); !strings.HasPrefix(lines[1], "- "+want[0][:7]+" ") ||
		!strings.Contains(out, "renamed from a") || !strings.Contains(out, "+2 -1") {
		t.Errorf("history:\n%s", out)
	}
	out = runOK(t, dir, "", "history", "--no-follow", "--limit", "1", "renamed")
	if !strings.Contains(out, "History of renamed: 2 commits") || !strings.Contains(out, "More: pass --cursor ") {
		t.Errorf("history --no-follow --limit 1:\n%s", out)
	}
}

func TestShowCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	short := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--short", "HEAD"))
	for _, tc := range []struct{ arg, want string }{
		{"renamed@" + short, "HEAD:renamed.md"},
		{"renamed@HEAD~1", "HEAD~1:renamed.md"},
		{"a@HEAD~2", "HEAD~2:a.md"},
		{"a.md@HEAD~3", "HEAD~3:a.md"},
	} {
		if got, want := runOK(t, dir, "", "show", tc.arg), gittest.Git(t, dir, "show", tc.want); got != want {
			t.Errorf("show %s = %q, want %q", tc.arg, got, want)
		}
	}
	for _, args := range [][]string{{"show", "renamed"}, {"show", "renamed@"}, {"show", "@HEAD"}} {
		if _, err := runIn(t, dir, "", args...); !errors.As(err, new(exitError)) {
			t.Errorf("wikid %v: %v, want a usage error", args, err)
		}
	}
	for _, arg := range []string{"renamed@no-such-version", "renamed@HEAD~2"} {
		if _, err := runIn(t, dir, "", "show", arg); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
			t.Errorf("show %s: %v, want NOT_FOUND", arg, err)
		}
	}
}

func TestDiffCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	// The whole change of every commit applies in reverse to the next
	// older state: check it with git apply --check -R against the index.
	patch := filepath.Join(t.TempDir(), "patch")
	out := runOK(t, dir, "", "diff", "--to", "HEAD")
	if err := os.WriteFile(patch, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	gittest.Git(t, dir, "apply", "--check", "-R", "--cached", patch)
	if !strings.Contains(out, "-one\n+ONE\n") {
		t.Errorf("diff --to HEAD:\n%s", out)
	}
	out = runOK(t, dir, "", "diff", "--from", "HEAD~3", "renamed")
	if !strings.Contains(out, "rename from a.md\nrename to renamed.md\n") {
		t.Errorf("diff of a renamed note:\n%s", out)
	}
	out = runOK(t, dir, "", "diff", "--stat", "--from", "HEAD~3")
	if !strings.Contains(out, "renamed a.md → renamed.md (+3 -1)") || !strings.Contains(out, "1 file, +3 -1") {
		t.Errorf("diff --stat:\n%s", out)
	}
	if out := runOK(t, dir, "", "diff", "-U", "0", "renamed"); !strings.Contains(out, "@@ -3 +3 @@\n-one\n+ONE\n") {
		t.Errorf("diff -U 0:\n%s", out)
	}
}

func TestLogCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	var res wiki.ActivityResult
	if err := json.Unmarshal([]byte(runOK(t, dir, "", "log", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.Commits {
		got = append(got, c.Commit)
	}
	if want := gitLines(t, dir, "log", "--format=%H"); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("log --json: %v, want %v", got, want)
	}
	out := runOK(t, dir, "", "log", "--tool", "edit")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 3 ||
		!strings.Contains(lines[1], " via edit (wikid-cli/") || !strings.Contains(lines[1], "+1 -0") || lines[2] != "  modified a" {
		t.Errorf("log --tool edit:\n%s", out)
	}
	if out := runOK(t, dir, "", "log", "--since", "2999-01-01"); out != "No commits match.\n" {
		t.Errorf("log --since the future:\n%s", out)
	}
	if _, err := runIn(t, dir, "", "log", "--since", "yesterday"); err == nil || !strings.Contains(err.Error(), "INVALID_PARAMS") {
		t.Errorf("log --since yesterday: %v", err)
	}
}

func TestBlameCommand_Run(t *testing.T) {
	dir := historyRepo(t)
	out := runOK(t, dir, "", "blame", "renamed")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var want []string
	for _, l := range gitLines(t, dir, "blame", "--porcelain", "renamed.md") {
		if f := strings.Fields(l); len(f) >= 3 && len(f[0]) == 40 {
			want = append(want, f[0][:7])
		}
	}
	if len(lines) != len(want) {
		t.Fatalf("blame:\n%s\nwant %d lines", out, len(want))
	}
	for i, l := range lines {
		if l[:7] != want[i] {
			t.Errorf("line %d: %s, git blame says %s", i+1, l, want[i])
		}
	}
	if !strings.HasSuffix(lines[2], " 3) ONE") {
		t.Errorf("line 3: %q", lines[2])
	}
}

// gitLines runs git and returns its output's non-empty lines.
func gitLines(t *testing.T, dir string, args ...string) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(gittest.Git(t, dir, args...), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
