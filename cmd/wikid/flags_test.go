package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    string // the flags, then | and the positional arguments
		wantErr string
	}{
		{"flags first", []string{"--limit", "2", "--json", "a", "b"}, "json=true limit=2 | a b", ""},
		{"flags last", []string{"a", "b", "--limit", "2", "--json"}, "json=true limit=2 | a b", ""},
		{"flags between", []string{"a", "-limit=2", "b", "-json"}, "json=true limit=2 | a b", ""},
		{"a value that looks like a flag", []string{"--section", "--json", "a"}, "json=false limit=10 section=--json | a", ""},
		{"-- ends the flags", []string{"a", "--", "--json", "-x"}, "json=false limit=10 | a --json -x", ""},
		{"a lone dash is an argument", []string{"-", "--json"}, "json=true limit=10 | -", ""},
		{"bool with a value", []string{"a", "--json=false"}, "json=false limit=10 | a", ""},
		{"unknown flag after an argument", []string{"a", "-x"}, "", `flag provided but not defined: -x (an argument that begins with "-" goes after "--"`},
		{"missing value", []string{"a", "--limit"}, "", "flag needs an argument: -limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := newFlagSet("test", "", io.Discard)
			asJSON := fs.Bool("json", false, "")
			limit := fs.Int("limit", 10, "")
			section := fs.String("section", "", "")
			err := parseFlags(fs, tt.args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := "json=" + map[bool]string{true: "true", false: "false"}[*asJSON] + " limit=" + itoa(*limit)
			if *section != "" {
				got += " section=" + *section
			}
			got += " | " + strings.Join(fs.Args(), " ")
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestRun_FlagsAfterArguments runs every command with its flags after its
// positional arguments, and checks that the flags took effect. A command
// that takes no argument refuses a stray one, whatever follows it.
func TestRun_FlagsAfterArguments(t *testing.T) {
	dir := gittest.Init(t)
	gittest.Commit(t, dir, "seed", map[string]string{
		"a.md":   "# A\n\n## S\n\ncanvas one\n",
		"b.md":   "# B\n\ncanvas two [[a]]\n\n--limit is a flag\n",
		"f/c.md": "# C\n\n[[a]]\n",
	})
	gittest.Commit(t, dir, "edit a", map[string]string{"a.md": "# A\n\n## S\n\ncanvas one, edited\n"})
	head := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD"))
	isJSON := func(t *testing.T, out string) {
		t.Helper()
		if !json.Valid([]byte(out)) {
			t.Errorf("not JSON:\n%s", out)
		}
	}
	dryRun := func(t *testing.T, out string) {
		t.Helper()
		if !strings.Contains(out, "Dry run, nothing was committed.") {
			t.Errorf("not a dry run:\n%s", out)
		}
		if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); got != head {
			t.Errorf("HEAD moved to %s", got)
		}
	}
	usage := func(t *testing.T, out string) { t.Helper() } // checked by wantUsage
	bare := filepath.Join(t.TempDir(), "bare")
	tests := []struct {
		args      []string
		stdin     string
		check     func(t *testing.T, out string)
		wantUsage string // the message of a usage error (exit status 2)
	}{
		{args: []string{"read", "a", "--section", "S"}, check: func(t *testing.T, out string) {
			if out != "## S\n\ncanvas one, edited\n" {
				t.Errorf("read --section S: %q", out)
			}
		}},
		{args: []string{"write", "new", "--dry-run"}, stdin: "# New\n", check: dryRun},
		{args: []string{"edit", "a", "--op", "append", "--content", "x", "--dry-run"}, check: dryRun},
		{args: []string{"rm", "a", "--dry-run"}, check: dryRun},
		{args: []string{"mv", "a", "z", "--dry-run"}, check: dryRun},
		{args: []string{"restore", "a", "HEAD~1", "--dry-run"}, check: dryRun},
		{args: []string{"revert", "HEAD", "--dry-run"}, check: dryRun},
		{args: []string{"links", "a", "--json"}, check: isJSON},
		{args: []string{"check", "f", "--json"}, check: isJSON},
		{args: []string{"search", "canvas", "--limit", "1", "--json"}, check: func(t *testing.T, out string) {
			var res struct {
				Total   int
				Results []struct{ Path string }
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Total != 2 || len(res.Results) != 1 {
				t.Errorf("search canvas --limit 1 --json: total %d, %d results, want 2 and 1 (%v)\n%s", res.Total, len(res.Results), err, out)
			}
		}},
		{args: []string{"context", "where", "is", "the", "canvas?", "--budget", "300", "--json"}, check: func(t *testing.T, out string) {
			var res struct {
				Query          string
				Sections       []struct{ Path, Text string }
				Tokens, Budget int
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || res.Query != "canvas" || len(res.Sections) == 0 || res.Budget != 300 || res.Tokens > 300 {
				t.Errorf("context --budget 300 --json: %+v (%v)\n%s", res, err, out)
			}
		}},
		{args: []string{"grep", "canvas", "--json"}, check: isJSON},
		{args: []string{"history", "a", "--json"}, check: isJSON},
		{args: []string{"show", "a@HEAD~1", "--json"}, check: func(t *testing.T, out string) {
			if isJSON(t, out); !strings.Contains(out, "canvas one\\n") {
				t.Errorf("show a@HEAD~1 --json:\n%s", out)
			}
		}},
		{args: []string{"diff", "a", "--stat"}, check: func(t *testing.T, out string) {
			if !strings.Contains(out, "- modified a (+1 -1)") || strings.Contains(out, "@@") {
				t.Errorf("diff a --stat:\n%s", out)
			}
		}},
		{args: []string{"blame", "a", "--json"}, check: isJSON},
		{args: []string{"init", bare, "--bare"}, check: func(t *testing.T, out string) {
			if got := strings.TrimSpace(gittest.Git(t, bare, "rev-parse", "--is-bare-repository")); got != "true" {
				t.Errorf("init DIR --bare made a repository that is not bare (%s)", got)
			}
		}},
		{args: []string{"log", "extra", "--json"}, check: usage, wantUsage: `wikid log: want 0 arguments, got 1 ("extra")`},
		{args: []string{"reindex", "extra", "--rebuild"}, check: usage, wantUsage: `wikid reindex: want 0 arguments, got 1 ("extra")`},
		{args: []string{"serve", "extra", "--read-only"}, check: usage, wantUsage: `wikid serve: want 0 arguments, got 1 ("extra")`},
		{args: []string{"daemon", "status", "extra", "--json"}, check: usage, wantUsage: `wikid daemon: want 1 argument, got 2 ("status" "extra")`},
		{args: []string{"version", "extra"}, check: usage, wantUsage: `wikid version: want 0 arguments, got 1 ("extra")`},
		{args: []string{"sync", "extra", "--json"}, check: usage, wantUsage: `wikid sync: want 0 arguments, got 1 ("extra")`},
		{args: []string{"web", "extra", "--no-open"}, check: usage, wantUsage: `wikid web: want 0 arguments, got 1 ("extra")`},
		{args: []string{"proposals", "list", "extra", "--json"}, check: usage, wantUsage: `wikid proposals list: want 0 arguments, got 1`},
	}
	e, _, _ := testEnv("", nil)
	for name := range commands(e) {
		if !slices.ContainsFunc(tests, func(tc struct {
			args      []string
			stdin     string
			check     func(t *testing.T, out string)
			wantUsage string
		}) bool {
			return tc.args[0] == name
		}) {
			t.Errorf("no case for the command %s", name)
		}
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			e, stdout, stderr := testEnv(tc.stdin, map[string]string{"WIKID_REPO": dir})
			err := run(context.Background(), e, tc.args)
			if tc.wantUsage != "" {
				if err != exitError(2) || !strings.Contains(stderr.String(), tc.wantUsage) {
					t.Errorf("error %v, stderr:\n%s\nwant exit status 2 and %q", err, stderr, tc.wantUsage)
				}
				return
			}
			if err != nil {
				t.Fatalf("wikid %s: %v\n%s", strings.Join(tc.args, " "), err, stderr)
			}
			tc.check(t, stdout.String())
		})
	}
	t.Run("-- ends the flags", func(t *testing.T) {
		out := runOK(t, dir, "", "grep", "--", "--limit")
		if out != "b:5:--limit is a flag\n" {
			t.Errorf("grep -- --limit: %q", out)
		}
	})
	t.Run("too many arguments are named", func(t *testing.T) {
		e, _, stderr := testEnv("", map[string]string{"WIKID_REPO": dir})
		err := run(context.Background(), e, []string{"read", "a", "S", "--metadata"})
		if err != exitError(2) || !strings.Contains(stderr.String(), `wikid read: want 1 argument, got 2 ("a" "S")`) {
			t.Errorf("error %v, stderr:\n%s", err, stderr)
		}
	})
}

// TestRun_Help checks that "wikid help CMD" prints each command's usage and
// the flags it really takes, on standard output.
func TestRun_Help(t *testing.T) {
	e, _, _ := testEnv("", nil)
	for name := range commands(e) {
		t.Run(name, func(t *testing.T) {
			e, stdout, stderr := testEnv("", nil)
			if err := run(context.Background(), e, []string{"help", name}); err != nil {
				t.Fatal(err)
			}
			out := stdout.String()
			if !strings.HasPrefix(out, "Usage: wikid "+name) || stderr.Len() != 0 {
				t.Errorf("help %s:\n%s\nstderr: %s", name, out, stderr)
			}
			// Every command but version takes a flag; the flag set is the
			// command's own, so compare with what its --help prints.
			if name != "version" && !strings.Contains(out, "\n  -") {
				t.Errorf("help %s lists no flag:\n%s", name, out)
			}
			e2, _, stderr2 := testEnv("", nil)
			if err := run(context.Background(), e2, []string{name, "--help"}); !errors.Is(err, flag.ErrHelp) {
				t.Errorf("%s --help: %v", name, err)
			}
			if stderr2.String() != out {
				t.Errorf("help %s differs from %s --help:\n%s\n---\n%s", name, name, out, stderr2)
			}
		})
	}
	t.Run("flags of read", func(t *testing.T) {
		out := runOK(t, t.TempDir(), "", "help", "read")
		for _, f := range []string{"-section string", "-version string", "-metadata", "-json", "-repo string"} {
			if !strings.Contains(out, "  "+f+"\n") {
				t.Errorf("help read lacks %s:\n%s", f, out)
			}
		}
	})
	t.Run("unknown command", func(t *testing.T) {
		e, _, stderr := testEnv("", nil)
		if err := run(context.Background(), e, []string{"help", "nope"}); err != exitError(2) || !strings.Contains(stderr.String(), `unknown command "nope"`) {
			t.Errorf("help nope: %v\n%s", err, stderr)
		}
	})
}

func TestRun_Version(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			e, stdout, _ := testEnv("", nil)
			if err := run(context.Background(), e, args); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(stdout.String(), "wikid "+version) {
				t.Errorf("%v printed %q", args, stdout)
			}
		})
	}
}
