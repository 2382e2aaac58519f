//go:build !linux

package gitindex

import "os"

// statData returns the stat fields git keeps in an index entry. Outside
// Linux only the times and the size are filled in; git then refreshes the
// entry by content on its next status.
func statData(fi os.FileInfo) [10]uint32 { return portableStatData(fi) }
