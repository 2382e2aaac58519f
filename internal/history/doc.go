// Package history is wikid's per-path history index; Index satisfies
// wiki.History, a wiki.DerivedStore the wiki's follower keeps at HEAD.
//
// # What it holds
//
// For every commit reachable from the branch, the index keeps its parents,
// author, committer, subject and wikid trailers, and the files it changed
// compared with its first parent (with the blobs before and after and the
// added and deleted lines). For a merge it also keeps, for each of those
// files, what the other parents had at that path. An added file whose
// content came from a file the same commit deleted carries that file as its
// rename source, found as git finds it for `git log --follow` and `git
// blame`: equal content first, then a file with the same base name that is
// at least 75% similar, then the most similar one if at least 50% (git's
// similarity score, byte for byte). From this, per path, the list of the
// commits that changed it is kept in memory.
//
// The index is built from the commits' tree diffs once and then extended by
// every new commit, whoever made it: a commit on top of the index's takes
// the follower's update as its diff (for a commit the wiki made, the changes
// it wrote, contents included), others are diffed one by one. It lives in one file under the wiki's
// derived-state folder (.git/wikid/history): a header and one checksummed
// record per commit, parents before children, appended as commits arrive;
// it is read by the first Sync, so opening costs nothing. A damaged tail is
// cut off and rebuilt from the commits. When history was rewritten (an
// amend, a reset followed by new commits, a forced pull), the commits the
// branch no longer reaches are dropped and the file is rewritten.
//
// # Missing objects
//
// A partial clone (`git clone --filter=blob:none`, as large vaults with
// media are cloned) holds every commit and tree but only the blobs its
// checkout needed, and a damaged repository may have lost some. The index
// is built all the same: where a blob is missing, the change's line counts
// are unknown (FileRevision.LinesUnknown) and rename detection falls back to
// equal blob ids, which need no content (an added file that may still be a
// rename is marked RenameUnknown); where a tree is missing (a treeless
// clone), the commit is kept with its files unknown. Each record lists the
// objects it needed and lacked, and MissingObjects counts them. Blame hands
// no line past a missing version: the lines stay with the commit above it,
// marked OriginUnknown. A blob fetched later is still counted as missing
// until the index file is deleted and rebuilt.
//
// # How it answers
//
// Queries walk the commit graph in memory the way git does, without reading
// a single object: the commits in `git log` order (by committer date,
// first in first out among equal dates); `git log -- path` with git's
// default history simplification (a merge whose file equals one of its
// parents' is followed into the first such parent only, and left out; one
// that differs from all of them is shown and all parents followed); `git
// log --follow`, which walks every commit, leaves merges out and switches
// to the old path at a rename; and `git blame`, which hands lines down to
// parents through line diffs of the blobs, reading only the blobs of the
// commits that changed the file.
package history
