package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestDates_OneRuleForEveryFrontEnd: in a wiki whose time zone is not
// UTC, `wikid log --since/--until` and activity_log's since/until read a
// date in that zone alike, and give the same commits. The commits sit on
// either side of midnight in Tokyo, where UTC would cut the days
// elsewhere.
func TestDates_OneRuleForEveryFrontEnd(t *testing.T) {
	t.Parallel()
	dir := gittest.Init(t)
	commitAt := func(file, content, date string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		gittest.Git(t, dir, "add", "-A")
		cmd := exec.Command("git", "commit", "-q", "-m", "add "+file)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(), "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git commit: %v\n%s", err, out)
		}
	}
	commitAt("z.md", "# Z\n", "2024-05-30T12:00:00Z")
	commitAt(".wikid.yaml", "timezone: Asia/Tokyo\n", "2024-05-31T14:00:00Z") // May 31, 23:00 in Tokyo
	commitAt("a.md", "# A\n", "2024-05-31T16:00:00Z")                         // June 1, 01:00 in Tokyo
	commitAt("b.md", "# B\n", "2024-06-01T10:00:00Z")                         // June 1, 19:00 in Tokyo
	commitAt("c.md", "# C\n", "2024-06-01T20:00:00Z")                         // June 2, 05:00 in Tokyo

	env := serveEnv()
	cliLog := func(args ...string) []string {
		t.Helper()
		var res struct {
			Commits []struct{ Subject string } `json:"commits"`
		}
		out := wikidCLI(t, env, "", append([]string{"log", "--repo", dir, "--json"}, args...)...)
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("wikid log %v: %v\n%s", args, err, out)
		}
		var subjects []string
		for _, c := range res.Commits {
			subjects = append(subjects, c.Subject)
		}
		return subjects
	}
	var p *rpcServe
	activity := func(args map[string]any) []string {
		t.Helper()
		raw, err := p.call("tools/call", map[string]any{"name": "activity_log", "arguments": args})
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			IsError    bool `json:"isError"`
			Structured struct {
				Commits []struct{ Subject string } `json:"commits"`
			} `json:"structuredContent"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.IsError {
			t.Fatalf("activity_log %v: %v %s", args, err, raw)
		}
		var subjects []string
		for _, c := range res.Structured.Commits {
			subjects = append(subjects, c.Subject)
		}
		return subjects
	}
	cases := []struct {
		since, until string
		want         []string
	}{
		{"2024-06-01", "2024-06-01", []string{"add b.md", "add a.md"}},
		{"2024-06-02", "", []string{"add c.md"}},
		{"", "2024-05-31", []string{"add .wikid.yaml", "add z.md"}},
		{"2024-06-01T19:00", "", []string{"add c.md", "add b.md"}},
		{"2024-06", "2024-06", []string{"add c.md", "add b.md", "add a.md"}},
	}
	// The commands first: a server in its own process holds the index.
	cli := make([][]string, len(cases))
	for i, tc := range cases {
		var flags []string
		if tc.since != "" {
			flags = append(flags, "--since", tc.since)
		}
		if tc.until != "" {
			flags = append(flags, "--until", tc.until)
		}
		cli[i] = cliLog(flags...)
	}
	p = startRPC(t, dir)
	defer func() {
		p.in.Close()
		p.cmd.Wait()
	}()
	for i, tc := range cases {
		args := map[string]any{}
		if tc.since != "" {
			args["since"] = tc.since
		}
		if tc.until != "" {
			args["until"] = tc.until
		}
		cli, tool := cli[i], activity(args)
		if !slices.Equal(cli, tc.want) || !slices.Equal(tool, tc.want) {
			t.Errorf("since %q until %q:\n wikid log     %s\n activity_log  %s\n want          %s", tc.since, tc.until,
				strings.Join(cli, ", "), strings.Join(tool, ", "), strings.Join(tc.want, ", "))
		}
	}
}
