// Package gitindex reads and rewrites git's index file (.git/index), the
// staging area of a checkout: the entries of the tracked files, with their
// object ids and stat data, and the extensions after them.
//
// The index is read and written here rather than with go-git's codec,
// which decodes every entry into its own allocation and encodes them all
// again (about 40 ms for 10,000 entries). Here the file is scanned once for
// entry boundaries, kept as read, and written back by copying the runs of
// untouched entries and building only the touched ones, so a rewrite costs
// one pass over the file plus its checksum. Versions 2, 3 and 4 are read
// and written as found.
//
// A rewrite does what git does when it changes entries: the cache tree
// (TREE) is invalidated along the touched paths and kept elsewhere, so git
// still reuses the untouched subtrees; resolve-undo (REUC) is kept; the
// other optional extensions (the untracked cache, the fsmonitor data, the
// offset tables) describe the old file and are dropped, and git recreates
// them when it needs them. A split index (core.splitIndex), a sparse index
// and unknown required extensions cannot be rewritten: Unwritable names
// them, for the caller to refuse before it writes anything.
//
// Stat data are what git compares to tell a file unchanged without reading
// it: on Linux all of them (times, device, inode, mode, owner, size, each
// truncated to 32 bits as git does); elsewhere only the times and the
// size, and git then refreshes the entry by content on its next status. An
// entry whose file changed in the second the index was written is racily
// clean: its stat data may match while its content does not. StatClean
// does not trust such an entry, and SmudgeRacy, as git does before it
// rewrites an index, zeroes the size of one whose content changed, so that
// the newer index does not make it look clean.
package gitindex
