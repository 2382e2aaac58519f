package gitstore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

func TestInit(t *testing.T) {
	ctx := context.Background()
	for _, bare := range []bool{false, true} {
		t.Run(map[bool]string{false: "checkout", true: "bare"}[bare], func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "wiki")
			if err := Init(ctx, dir, bare); err != nil {
				t.Fatal(err)
			}
			if got := gittest.Git(t, dir, "symbolic-ref", "HEAD"); got != "refs/heads/main\n" {
				t.Errorf("HEAD -> %q", got)
			}
			if got := strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "--is-bare-repository")); got != map[bool]string{false: "false", true: "true"}[bare] {
				t.Errorf("--is-bare-repository = %s", got)
			}
			s := openStore(t, dir)
			id := mustCommit(t, s, request("", "init: wiki", map[string]string{"README.md": "# Wiki\n"}))
			if got := rev(t, dir, "main"); got != id {
				t.Errorf("main = %s, want %s", got, id)
			}
			if !bare {
				checkCheckout(t, dir)
				checkDisk(t, dir, map[string]string{"README.md": "# Wiki\n"})
			}
			gittest.Fsck(t, dir)
			if err := Init(ctx, dir, bare); err == nil {
				t.Error("Init over a repository succeeded")
			}
		})
	}
}
