package render

import (
	"strings"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

// Read renders a read: a short header, then the content or the
// outline.
func Read(r *wiki.ReadResult, metadataOnly bool) string {
	var b Builder
	b.Line("# %s", r.Title)
	if r.Commit != "" {
		b.Line("path: %s · version %s · last changed in commit %s", r.Path, ShortID(r.Version), ShortID(r.Commit))
	} else {
		b.Line("path: %s · version %s", r.Path, ShortID(r.Version))
	}
	b.Line("tags: %s", tagList(r.Tags))
	if len(r.Aliases) > 0 {
		b.Line("aliases: %s", tagList(r.Aliases))
	}
	if r.Created != nil {
		b.Line("created: %s", withGit(*r.Created, r.CreatedSource, r.GitCreated))
	}
	if r.Modified != nil {
		b.Line("modified: %s", withGit(*r.Modified, r.ModifiedSource, r.GitModified))
	}
	if r.LocalChange != "" {
		b.Line("local change: the checked-out file differs from this committed version (%s, not committed); "+
			"commit it with git to see it here", r.LocalChange)
	}
	for _, w := range r.Warnings {
		b.Line("warning: %s", w)
	}
	if metadataOnly {
		if len(r.Properties) > 0 {
			b.Line("")
			b.Line("frontmatter:")
			for _, k := range sortedKeys(r.Properties) {
				b.Line("  %s: %s", k, Value(r.Properties[k]))
			}
		}
		if len(r.Headings) > 0 {
			b.Line("")
			b.Line("outline:")
			for _, h := range r.Headings {
				b.Line("  %s %s (line %d)", strings.Repeat("#", h.Level), h.Text, h.Line)
			}
		}
		if len(r.Backlinks) > 0 {
			b.Line("")
			b.Line("backlinks:")
			for _, bl := range r.Backlinks {
				for _, l := range bl.Links {
					b.Line("  %s line %d: %s", bl.Path, l.Line, l.Context)
				}
			}
			if r.MoreBacklinks > 0 {
				b.Line("  … and %d more notes{( ({links} lists them all))}", r.MoreBacklinks)
			}
		}
		return b.String()
	}
	if r.Section != "" {
		b.Line("section: %s", r.Section)
	}
	b.Line("---")
	b.WriteString(r.Content)
	if r.Truncated {
		if len(r.Content) > 0 && r.Content[len(r.Content)-1] != '\n' {
			b.Line("")
		}
		b.Line("%s characters %d to %d of %d shown{(; read on with {offset} %d)}", TruncatedMark,
			r.Offset, r.NextOffset, r.TotalChars, r.NextOffset)
	}
	return b.String()
}

// withGit renders a read's date with its source, and git's date when the
// frontmatter's is shown.
func withGit(t time.Time, source string, git *time.Time) string {
	s := Time(t) + " (" + source + ")"
	if git != nil {
		s += "; git: " + Time(*git)
	}
	return s
}

// Resolution says in words how links resolve.
func Resolution(r wiki.LinkResolution) string {
	if r == wiki.ResolveObsidian {
		return "obsidian (a [[name]] finds the note of that file name, as Obsidian does)"
	}
	return "wiki (a [[name]] also finds a note by its title or alias)"
}

// Status renders a wiki's state: its branch and HEAD, the indexes, whether
// it takes changes, its sync and its uncommitted files.
func Status(st *wiki.Status) string {
	var b Builder
	branch := st.Branch
	if st.Detached {
		branch = "(detached HEAD)"
	}
	kind := "checkout"
	if st.Bare {
		kind = "bare repository"
	}
	b.Line("Wiki at %s (%s), branch %s, HEAD %s, %s.", st.Repository, kind, branch, ShortID(st.Head), Plural(st.Notes, "note"))
	switch ix := st.Index; {
	case !ix.Enabled:
		b.Line("Search index: none.")
	case ix.Building && ix.Total > 0:
		b.Line("Search index: building, %d of %d files done (%d%%); searches wait for it, with progress notifications.", ix.Done, ix.Total, ix.Done*100/ix.Total)
	case ix.Building:
		b.Line("Search index: building; searches wait for it, with progress notifications.")
	case ix.CaughtUp:
		b.Line("Search index: up to date.")
	case ix.Behind > 0:
		b.Line("Search index: %s behind HEAD (at %s); the next search catches up.", Plural(ix.Behind, "commit"), ShortID(ix.Commit))
	default:
		b.Line("Search index: behind HEAD (at %s); the next search catches up.", ShortID(ix.Commit))
	}
	if st.Index.Error != "" {
		b.Line("Last index error: %s", st.Index.Error)
	}
	b.Line("History index: %s. Link graph: %s.", derived(st.History), derived(st.Graph))
	if st.Links != "" {
		b.Line("Links resolve: %s.", Resolution(st.Links))
	}
	if line := SemanticStatus(st.Semantic); line != "" {
		b.Line("%s", line)
	}
	if st.MissingObjects > 0 {
		b.Line("Missing objects: %d that the history refers to are absent from this repository (a partial clone, or a "+
			"damaged repository); the history tools mark the line counts, renames and blame that need them as unknown. "+
			"Notes at HEAD are unaffected.", st.MissingObjects)
	}
	switch {
	case st.Unwritable != "":
		b.Line("Read-only: %s; changes are refused, and the indexes are kept in %s.", st.Unwritable, st.DerivedDir)
	case st.ReadOnly:
		b.Line("Read-only: changes are refused.")
	case st.Blocked != "":
		b.Line("Blocked: changes fail with LOCKED: %s.", st.Blocked)
	case st.WritesTo != "":
		b.Line("Blocked: changes go to branch %s and fail with OTHER_BRANCH while %s is checked out.", st.WritesTo, branch)
	default:
		b.Line("Writable: every change is one commit.")
	}
	b.Line("Sync: %s", st.Sync.Message)
	for _, c := range st.Sync.Conflicts {
		b.Line("  conflict copy: %s", c)
	}
	for _, r := range st.Restored {
		b.Line("Restored: %s", r)
	}
	localChangesText(&b, st.LocalChanges)
	return b.String()
}

func derived(d wiki.DerivedStatus) string {
	switch {
	case !d.Enabled:
		return "none"
	case d.CaughtUp:
		return "up to date"
	default:
		return "building (the tools that need it wait for it)"
	}
}
