package wiki_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// TestWiki_Status_Blocked: a git lock file that wikid did not take shows in
// the status, naming the file, until it is removed.
func TestWiki_Status_Blocked(t *testing.T) {
	ctx := context.Background()
	for _, lock := range []string{".git/index.lock", ".git/refs/heads/main.lock"} {
		t.Run(lock, func(t *testing.T) {
			dir := seeded(t, map[string]string{"a.md": "a\n"})
			w := openWiki(t, dir, nil)
			st, err := w.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if st.Blocked != "" {
				t.Errorf("Blocked = %q without a lock", st.Blocked)
			}
			gittest.WriteFiles(t, dir, map[string]string{lock: "a git command's\n"})
			if st, err = w.Status(ctx); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(st.Blocked, filepath.Join(dir, filepath.FromSlash(lock))) || !strings.Contains(st.Blocked, "remove the file") {
				t.Errorf("Blocked = %q", st.Blocked)
			}
			os.Remove(filepath.Join(dir, lock))
			if st, err = w.Status(ctx); err != nil || st.Blocked != "" {
				t.Errorf("Blocked = %q, %v after the lock was removed", st.Blocked, err)
			}
		})
	}
}
