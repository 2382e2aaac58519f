// Package objdir reads and writes a repository's object folder (objects/)
// directly, where go-git is slow or has no way to do it.
//
// Loose objects are written here rather than through go-git's storer, for
// speed: compressed at zlib's best speed, as git does for loose objects
// (core.looseCompression defaults to 1), with one temporary file in the
// object's folder and one rename, instead of go-git's default compression
// and its temporary file in objects/pack.
//
// Objects are read here too (Reader): from the packs, resolving deltas with
// a cache of resolved objects keyed by their place in a pack as git's delta
// base cache is, and from loose files. go-git reads the same objects, but
// its cache hashes every object it keeps: reading a history's trees through
// it took twice as long.
//
// Objects whose id starts with a short prefix are found by scanning the
// loose object folders and the fan-out tables of the pack indexes, of the
// repository and of its alternates. Only version 2 pack indexes (git's
// default since 2007) are read, as by go-git.
package objdir
