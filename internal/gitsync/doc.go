// Package gitsync keeps a wiki in step with its copies on other machines:
// a round fetches the branch's upstream, integrates it and pushes.
//
// Integration never rewrites history, since the commits of acknowledged
// changes were handed to clients: it fast-forwards when it can, else it
// makes one merge commit, which merges file by file:
//
//   - a file only one side changed takes that side's version;
//   - a note both sides changed merges its body line by line
//     (textdiff.Merge3) and its frontmatter key by key, tags and aliases
//     as sets that honour a removal on either side;
//   - what does not merge (the same lines or key changed differently, an
//     add on both sides with different content, any other file changed
//     on both sides) keeps this side's version, and the other side's is
//     kept whole beside it as a conflict copy, "Note (conflict 2026-11-23
//     origin).md": never conflict markers inside a note;
//   - an edit against a delete keeps the edit;
//   - a rename on one side (a delete and an add of the same content) with
//     edits on the other puts the edits on the renamed file.
//
// After the branch, a round exchanges the review marks (notes.go) and the
// proposals (proposals.go: open and closed proposal refs, merged by
// wiki.MergeProposals, closed winning), unless the wiki keeps its
// proposals local.
//
// The merge commit's message lists what was merged and every conflict
// copy. A remote whose branch no longer contains what it had at the last
// fetch (its history was rewritten) is refused.
//
// The network side runs the git command (see remote.go), so that remotes,
// credential helpers, SSH configuration and known_hosts work as they do for
// the person's own git; so do the exchange of review marks (git notes
// merge) and the guard's few questions of history that the store has no
// answer for. Commits, trees and refs are read, and the branch written,
// through the wiki (wiki.Wiki's Head, Commit, Snapshot, Changes,
// Integrate and RestoreDropped), never round it through its store.
//
// The program makes one Syncer per wiki and hands it to what syncs: the
// daemon's timer, the sync command run in the daemon, the sync tool.
package gitsync
