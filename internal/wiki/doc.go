// Package wiki is the domain core of wikid: it opens a wiki over a git
// repository, serves reads, and turns every mutation into exactly one commit.
//
// It defines the small interfaces it needs from its adapters (Store for the
// git repository, Index, History and Graph for the search index, the
// history index and the link graph) and imports none of them: gitstore,
// index, history and graph satisfy these interfaces and cmd/wikid wires
// them together. It also defines the error contract every adapter returns
// (Error and its codes, from package wikierr).
//
// Derived state has one follower. Every store computed from the commits
// (the history index, the search index, the link graph, and any other given
// in Deps.Derived) is a DerivedStore: a commit, a Reset and an Apply of an
// Update, the files changed between two commits, read and parsed once for
// all stores. The follower builds each store in the background at Open,
// applies every commit the wiki makes to each before the mutation returns,
// catches a store up with commits made by others before a read that needs
// it (the read waits, reporting progress, rather than answer from part of
// the wiki), and rebuilds a store whose commit left the branch's history.
// One rule keeps a store consistent: it changes only under its lane's lock,
// held by the follower.
package wiki
