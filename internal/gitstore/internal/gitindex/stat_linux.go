package gitindex

import (
	"os"
	"syscall"
)

// statData returns the stat fields git keeps in an index entry, in index
// order: ctime s/ns, mtime s/ns, dev, ino, mode, uid, gid, size, each
// truncated to 32 bits as git does.
func statData(fi os.FileInfo) [10]uint32 {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return portableStatData(fi)
	}
	return [10]uint32{
		uint32(st.Ctim.Sec), uint32(st.Ctim.Nsec),
		uint32(st.Mtim.Sec), uint32(st.Mtim.Nsec),
		uint32(st.Dev), uint32(st.Ino), st.Mode, st.Uid, st.Gid, uint32(st.Size),
	}
}
