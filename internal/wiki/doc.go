// Package wiki is the domain core of wikid: it opens a wiki over a git
// repository, serves reads, and turns every mutation into exactly one commit.
//
// It defines the small interfaces it needs from its adapters (Store for the
// git repository, Index, History and Graph for the search index, the
// history index and the link graph) and imports none of them: gitstore,
// index, history and graph satisfy these interfaces and cmd/wikid wires
// them together. It also defines the error contract every adapter returns
// (Error and its codes, from package wikierr). Besides the codes each
// method lists, every mutation returns NO_SPACE when a write finds the
// disk full or the quota used up, and READ_ONLY when it finds the file
// system read-only (see FromOS). Nothing is committed then, and the
// checkout is as it was, unless putting it back failed too, which the
// error says.
//
// Derived state has one follower. Every store computed from the commits
// (the history index, the search index, the link graph, the semantic index,
// and any other given in Deps.Derived) is a DerivedStore itself: a commit, a
// Reset and an Apply of an Update, the files changed between two commits,
// read and parsed once for all stores; for a commit the wiki made, the
// changes it wrote, never read back. The stores do not wait for each
// other: the search index keeps only the frontmatter's dates, and a search
// by date takes git's from the history index (SearchRequest.GitDates). The
// follower builds each store in the background at Open, and applies every
// commit the wiki makes to each after the mutation has answered (a burst of
// writes as one update); a read that comes after the answer waits for that
// follow-up on the store it needs, so it still sees the change. The
// follower catches a store up with commits made by others before a read
// that needs it (the read waits, reporting progress, rather than answer
// from part of the wiki), and rebuilds a store whose commit left the
// branch's history. One rule keeps a store consistent: it changes
// only while its lane is held, by the follower.
//
// The core speaks no front end's language. Its results are plain Go types
// without JSON tags; each front end (the MCP server, the command line, and
// the web pages to come) encodes them in its own wire format and renders
// its own text. Messages, hints and warnings that tell the caller what to
// do next write references such as "{restore}" or "{expected_version}"
// (Sayf) where a front end's word goes, and each front end words them with
// its Words: restore_note for the MCP tools, wikid restore at the command
// line. The Wiki-Tool trailer records Caller.Tool, the name the front end
// was asked by, or else the operation (write, move, restore).
package wiki
