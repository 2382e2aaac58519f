// Package objdir reads and writes a repository's object folder (objects/)
// directly, where go-git is slow or has no way to do it.
//
// Loose objects are written here rather than through go-git's storer, for
// speed: compressed at zlib's best speed, as git does for loose objects
// (core.looseCompression defaults to 1), with one temporary file in the
// object's folder and one rename, instead of go-git's default compression
// and its temporary file in objects/pack.
//
// Objects whose id starts with a short prefix are found by scanning the
// loose object folders and the fan-out tables of the pack indexes, of the
// repository and of its alternates. Only version 2 pack indexes (git's
// default since 2007) are read, as by go-git.
package objdir
