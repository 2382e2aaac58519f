package main

import (
	"context"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestMvCommand_Run(t *testing.T) {
	ctx := context.Background()
	// b has no title of its own: its title is its file name
	seed := map[string]string{"a.md": "See [[b|the b note]] and [b](b.md).\n", "b.md": "no heading\n"}
	t.Run("move and relink", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", seed)
		e, stdout, stderr := testEnv("", nil)
		if err := (&mvCommand{env: e}).Run(ctx, []string{"--repo", dir, "-m", "tidy up", "b", "notes/c"}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		for _, w := range []string{"Moved note from b to notes/c as commit ", "- moved b → notes/c (+0 -0, version ", "- modified a (+1 -1, version ", "Updated links in 1 note:\n- a (2 links)\n"} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
		if got := gittest.Git(t, dir, "show", "HEAD:a.md"); got != "See [[c|the b note]] and [b](notes/c.md).\n" {
			t.Errorf("a.md = %q", got)
		}
		if got := gittest.Git(t, dir, "log", "-1", "--format=%s%n%b"); !strings.HasPrefix(got, "move: b -> notes/c\ntidy up\n") {
			t.Errorf("commit:\n%s", got)
		}
		if st := gittest.Status(t, dir); st != "" {
			t.Errorf("status:\n%s", st)
		}
	})
	t.Run("leave links, dry run", func(t *testing.T) {
		dir := gittest.Init(t)
		head := gittest.Commit(t, dir, "seed", seed)
		e, stdout, stderr := testEnv("", nil)
		if err := (&mvCommand{env: e}).Run(ctx, []string{"--repo", dir, "--dry-run", "--no-update-links", "b", "c"}); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		for _, w := range []string{"Dry run, nothing was committed.", "Risk: low.", "rename from b.md\nrename to c.md\n", "1 note has links that now point to the old path:\n- a (2 links)\n\nTo update these links, leave out --no-update-links.\n"} {
			if !strings.Contains(stdout.String(), w) {
				t.Errorf("output lacks %q:\n%s", w, stdout)
			}
		}
		if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "HEAD")); got != head {
			t.Errorf("a dry run committed %s", got)
		}
	})
	t.Run("target exists", func(t *testing.T) {
		dir := gittest.Init(t)
		gittest.Commit(t, dir, "seed", seed)
		e, _, _ := testEnv("", nil)
		err := (&mvCommand{env: e}).Run(ctx, []string{"--repo", dir, "b", "a"})
		if err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("error %v", err)
		}
	})
}
