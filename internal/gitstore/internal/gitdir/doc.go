// Package gitdir finds a git repository the way git does, and reads what
// its configuration says about how to write it and who writes.
//
// A repository has up to three places: the git directory (HEAD, the index,
// HEAD's reflog: one per worktree), the common directory (objects, refs,
// packed-refs, config: shared by the linked worktrees of a repository) and
// the work tree (none when it is bare). Discover looks from a path upwards
// for a ".git" folder, a ".git" file ("gitdir: <path>", as linked worktrees
// and submodules have) or a folder that is a git directory itself, and
// follows a linked worktree's commondir file.
//
// ReadConfig refuses what a writer that does not use git's own code must
// not touch: a repository format version above 1, sha256 object ids and
// the reftable ref backend. UserIdentity reads the author git would record
// from the environment and the configuration files, in git's order;
// include and includeIf are not followed.
package gitdir
