// Package gitformat reads and writes git's object, ref, reflog and
// revision formats: functions over bytes and strings that need no
// repository. Package gitstore does the reading and writing of files; the
// ids and object types are go-git's plumbing types.
//
// Objects are hashed with crypto/sha1, which gives the ids go-git's
// collision-detecting hash gives, faster. Trees are decoded into their
// entries in git's order (by name, a tree sorting as if its name ended in
// '/') and encoded back byte for byte. Of a commit, ParseCommit reads only
// the headers that link it (its tree and parents), which is what walking
// history needs; ParseCommitInfo reads its signatures and message too.
// Signatures, reflog lines and reflog messages are written as git writes
// them, so that git log and git reflog show wikid's commits as their own.
//
// Ref names are checked against what could escape the git directory and
// what git itself refuses. Revisions are split as git reads them: a base
// (a ref, a full or short id) followed by "~n" and "^n" suffixes.
package gitformat
