// Package wiki is the domain core of wikid: it opens a wiki over a git
// repository, serves reads, and turns every mutation into exactly one commit.
//
// It defines the small interfaces it needs from its adapters (Store for the
// git repository, later the search index, link graph and history index) and
// imports none of them: gitstore, index, history and graph satisfy these
// interfaces and cmd/wikid wires them together.
package wiki
