package gittest

import (
	"strconv"
	"strings"
	"testing"
)

func TestGenerate(t *testing.T) {
	for _, tc := range []struct{ notes, commits int }{{30, 10}, {5, 12}, {1, 1}} {
		t.Run(strconv.Itoa(tc.notes)+"x"+strconv.Itoa(tc.commits), func(t *testing.T) {
			dir := t.TempDir()
			Generate(t, dir, tc.notes, tc.commits)
			files := strings.Fields(Git(t, dir, "ls-files"))
			if len(files) != tc.notes {
				t.Errorf("%d files, want %d", len(files), tc.notes)
			}
			for _, f := range files {
				if !strings.HasSuffix(f, ".md") || !strings.Contains(f, "/") {
					t.Errorf("file %q is not a note in a folder", f)
				}
			}
			n, _ := strconv.Atoi(strings.TrimSpace(Git(t, dir, "rev-list", "--count", "HEAD")))
			if n != tc.commits {
				t.Errorf("%d commits, want %d", n, tc.commits)
			}
			if st := Status(t, dir); st != "" {
				t.Errorf("status:\n%s", st)
			}
			Fsck(t, dir)
			note := Git(t, dir, "show", "HEAD:"+files[0])
			if !strings.HasPrefix(note, "---\ntitle: ") || !strings.Contains(note, "tags: [") {
				t.Errorf("note has no frontmatter:\n%s", note)
			}
			// The same parameters give the same history.
			again := t.TempDir()
			Generate(t, again, tc.notes, tc.commits)
			if a, b := Git(t, dir, "rev-parse", "HEAD"), Git(t, again, "rev-parse", "HEAD"); a != b {
				t.Errorf("HEAD %s, then %s", a, b)
			}
		})
	}
}
