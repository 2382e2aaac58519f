package storetest

import (
	"testing"

	"github.com/wikid/wikid/internal/gittest"
)

// steps make a repository's history, one commit each (the merge two): the
// changes a derived store must follow.
var steps = []func(tb testing.TB, dir string){
	func(tb testing.TB, dir string) {
		gittest.Commit(tb, dir, "seed", map[string]string{
			"a.md":       "# Alpha\n\nSee [[b]] and [[notes/c]] about zeppelins.\n",
			"b.md":       "---\ntitle: Bravo\ntags: [project, x]\naliases: [Bee]\n---\n# B\n\nBack to [[a]].\n",
			"notes/c.md": "# Charlie\n\n![[img.png]] and [[Bee]], the airship canvas.\n\n## Part\n\nMore words.\n",
			"img.png":    "\x89PNG\r\n\x1a\n",
			"README.txt": "not a note\n",
		})
	},
	func(tb testing.TB, dir string) {
		gittest.Commit(tb, dir, "edit a", map[string]string{
			"a.md": "# Alpha\n\nSee [[b]], [[d]] and [[notes/c#Part]] about airships.\n",
		})
	},
	func(tb testing.TB, dir string) {
		gittest.WriteFiles(tb, dir, map[string]string{"d.md": "---\ntags: [x]\n---\n# Delta\n\nLinks [[Charlie]] and [[a]].\n"})
		gittest.Git(tb, dir, "mv", "notes", "archive")
		gittest.Git(tb, dir, "add", "-A")
		gittest.Git(tb, dir, "commit", "-q", "-m", "add d, move c")
	},
	func(tb testing.TB, dir string) {
		gittest.Git(tb, dir, "rm", "-q", "b.md", "img.png")
		gittest.Git(tb, dir, "commit", "-q", "-m", "remove b and the image")
	},
	func(tb testing.TB, dir string) {
		gittest.Git(tb, dir, "checkout", "-q", "-b", "side")
		gittest.Commit(tb, dir, "on the side", map[string]string{"e.md": "# Echo\n\n[[d]] [[a]]\n"})
		gittest.Git(tb, dir, "checkout", "-q", "-")
		gittest.Commit(tb, dir, "on the trunk", map[string]string{"d.md": "# Delta\n\nNo more tags. [[archive/c]]\n"})
		gittest.Git(tb, dir, "merge", "-q", "--no-ff", "-m", "merge side", "side")
	},
	func(tb testing.TB, dir string) {
		gittest.Git(tb, dir, "mv", "archive", "old")
		gittest.Commit(tb, dir, "rename a folder, edit e", map[string]string{
			"e.md":       "---\naliases: [E]\n---\n# Echo\n\n[[d]] [[old/c]] [[gone]]\n",
			"b.md":       "# Bravo again\n\n[[E]]\n",
			"f/g/h.md":   "# Hotel\n\ndeep [[a]]\n",
			"README.txt": "still not a note\n",
			".gitignore": ".obsidian/\n",
		})
	},
}
