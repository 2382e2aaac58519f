// Package gitnotes writes a repository's git notes with the git command
// itself, under git's own locks, so that they are the notes git log
// --notes, git notes merge and git push know. (The store reads them from
// the objects, in process.)
//
// A write runs one git notes command per commit and
// is all or none: a failure part way moves the notes ref back to where it
// was, unless someone moved it meanwhile. git runs with the repository's
// git directory given explicitly, never prompting, and without the
// variables of the caller's environment that would point it at another
// repository, index or work tree.
package gitnotes
