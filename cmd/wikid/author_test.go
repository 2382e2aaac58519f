package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestRun_Author checks who the command line's commits are by: the person
// git names, as git itself would record them, unless --author says
// otherwise.
func TestRun_Author(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = Global Gus\n\temail = gus@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		repoConfig map[string]string // git config --local
		vars       map[string]string
		args       []string
		want       string // %an <%ae> of the new commit
		wantNotice bool
	}{
		{"the repository's user", map[string]string{"user.name": "Ana Local", "user.email": "ana@example.com"}, nil, nil, "Ana Local <ana@example.com>", false},
		{"the global user", nil, map[string]string{"HOME": home}, nil, "Global Gus <gus@example.com>", false},
		{"the repository's user wins over the global one", map[string]string{"user.name": "Ana Local", "user.email": "ana@example.com"},
			map[string]string{"HOME": home}, nil, "Ana Local <ana@example.com>", false},
		{"author.* wins over user.*", map[string]string{"author.name": "Ana Author", "author.email": "author@example.com"},
			map[string]string{"HOME": home}, nil, "Ana Author <author@example.com>", false},
		{"the environment wins", map[string]string{"user.name": "Ana Local", "user.email": "ana@example.com"},
			map[string]string{"GIT_AUTHOR_NAME": "Env Eve", "GIT_AUTHOR_EMAIL": "eve@example.com"}, nil, "Env Eve <eve@example.com>", false},
		{"--author wins", map[string]string{"user.name": "Ana Local", "user.email": "ana@example.com"}, nil,
			[]string{"--author", "Bo <bo@example.com>"}, "Bo <bo@example.com>", false},
		{"WIKID_AUTHOR_* when git names nobody", nil, map[string]string{"WIKID_AUTHOR_NAME": "Wiki Will", "WIKID_AUTHOR_EMAIL": "will@example.com"},
			nil, "Wiki Will <will@example.com>", false},
		{"nobody: wikid, and a notice", nil, nil, nil, "wikid <wikid@localhost>", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := gittest.Init(t)
			gittest.Commit(t, dir, "seed", map[string]string{"a.md": "# A\n"})
			for k, v := range tt.repoConfig {
				gittest.Git(t, dir, "config", k, v)
			}
			vars := map[string]string{"WIKID_REPO": dir, "GIT_CONFIG_NOSYSTEM": "1"}
			for k, v := range tt.vars {
				vars[k] = v
			}
			for _, cmd := range [][]string{
				{"edit", "a", "--op", "append", "--content", "one"},
				{"write", "b"},
				{"mv", "b", "c"},
				{"rm", "c"},
				{"restore", "c"},
				{"revert", "HEAD"},
			} {
				e, _, stderr := testEnv("# B\n", vars)
				if err := run(context.Background(), e, append(cmd, tt.args...)); err != nil {
					t.Fatalf("wikid %s: %v\n%s", strings.Join(cmd, " "), err, stderr)
				}
				if got := gittest.Git(t, dir, "log", "-1", "--format=%an <%ae>"); got != tt.want+"\n" {
					t.Errorf("wikid %s: author %q, want %q", cmd[0], got, tt.want)
				}
				if got := strings.Contains(stderr.String(), "git names nobody"); got != tt.wantNotice {
					t.Errorf("wikid %s: notice %v, want %v:\n%s", cmd[0], got, tt.wantNotice, stderr)
				}
			}
			if got := gittest.Git(t, dir, "log", "-1", "--format=%cn <%ce>"); got != "wikid <wikid@localhost>\n" {
				t.Errorf("committer %q, want wikid", got)
			}
		})
	}
}
