//go:build !linux

package gitstore

import "os"

// statData returns the stat fields git keeps in an index entry. Outside
// Linux only the times and the size are filled in; git then refreshes the
// entry by content on its next status.
func statData(fi os.FileInfo) [10]uint32 { return portableStatData(fi) }

// inode returns 0: file identity outside Linux is not used.
func inode(os.FileInfo) uint64 { return 0 }
