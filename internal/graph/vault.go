package graph

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// vaultMarks is what a graph that tells its resolution from its commits (see
// NewDetecting) knows of the commit it reflects.
type vaultMarks struct {
	// checkout reports whether the checkout has an .obsidian folder; nil
	// for none (a bare repository).
	checkout func() bool
	files    int  // files under .obsidian/
	ignored  bool // the root .gitignore leaves .obsidian out
}

// vaultStep is what an Apply changes of the vault's marks.
type vaultStep struct {
	files    int   // files under .obsidian/ added, less those deleted
	ignored  *bool // the new .gitignore's word, nil when it did not change
	checkout bool  // the checkout has an .obsidian folder now
}

// NewDetecting returns an empty graph whose resolution follows the commits
// it applies: as Obsidian resolves links (wiki.ResolveObsidian) while the
// commit has files under .obsidian/, or a .gitignore that leaves .obsidian
// out (a vault that keeps its settings out of git), or while checkout
// reports an .obsidian folder in the checkout (checkout may be nil);
// else by path, title and alias (wiki.ResolveWiki). A commit that changes
// the mode resolves every link again. start is the resolution until the
// first Apply.
func NewDetecting(start wiki.LinkResolution, checkout func() bool) *Graph {
	g := NewResolving(start)
	g.vault = &vaultMarks{checkout: checkout}
	return g
}

// obsidianFile reports whether a repository file is in the .obsidian
// folder.
func obsidianFile(file string) bool { return strings.HasPrefix(file, ".obsidian/") }

// IgnoresObsidian reports whether a .gitignore leaves out an .obsidian
// folder: a line such as ".obsidian/", "/.obsidian" or ".obsidian/*".
func IgnoresObsidian(gitignore []byte) bool {
	for _, line := range strings.Split(string(gitignore), "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimPrefix(line, "/")
		line = strings.TrimRight(line, "*")
		if strings.TrimSuffix(line, "/") == ".obsidian" {
			return true
		}
	}
	return false
}

// detect takes a step of the vault's marks and sets the graph's mode from
// them; it reports whether the mode changed. The caller holds g.mu.
func (g *Graph) detect(s *vaultStep) bool {
	if g.vault == nil || s == nil {
		return false
	}
	g.vault.files += s.files
	if s.ignored != nil {
		g.vault.ignored = *s.ignored
	}
	on := g.vault.files > 0 || g.vault.ignored || s.checkout
	if on == g.obsidian {
		return false
	}
	g.obsidian = on
	return true
}

// see takes note of a changed file that marks a vault: a file of the
// .obsidian folder, or the root .gitignore (read at the update's commit).
func (s *vaultStep) see(ctx context.Context, u *wiki.Update, ch wiki.FileChange) error {
	switch {
	case obsidianFile(ch.Path) && ch.Delete:
		s.files--
	case obsidianFile(ch.Path) && ch.OldBlob == "":
		s.files++
	case ch.Path == ".gitignore":
		ignored := false
		if !ch.Delete {
			_, data, err := u.Read(ctx, ch.Path)
			if err != nil {
				return err
			}
			ignored = IgnoresObsidian(data)
		}
		s.ignored = &ignored
	}
	return nil
}
