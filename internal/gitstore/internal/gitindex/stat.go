package gitindex

import "os"

// portableStatData fills in the index stat fields os.FileInfo has.
func portableStatData(fi os.FileInfo) [10]uint32 {
	t := fi.ModTime()
	return [10]uint32{
		uint32(t.Unix()), uint32(t.Nanosecond()),
		uint32(t.Unix()), uint32(t.Nanosecond()),
		0, 0, 0, 0, 0, uint32(fi.Size()),
	}
}
