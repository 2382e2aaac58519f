package note

import (
	"fmt"
	"path"
	"strings"
	"time"
)

// ConflictCopy names the n-th conflict copy of file (a slash-separated
// path, with its extension): "Plan (conflict 2026-11-23 origin).md" beside
// it for n 1, "Plan (conflict 2026-11-23 origin 2).md" for n 2, and so on,
// where the date is day's and origin says where the other version came
// from. The copy keeps the file's extension, a note's or any other.
func ConflictCopy(file string, day time.Time, origin string, n int) string {
	dir, name := path.Split(file)
	base, ext := SplitExtension(name)
	if ext == "" {
		if i := strings.LastIndexByte(name, '.'); i > 0 {
			base, ext = name[:i], name[i:]
		}
	}
	label := "conflict " + day.Format("2006-01-02") + " " + origin
	if n > 1 {
		label = fmt.Sprintf("%s %d", label, n)
	}
	return dir + base + " (" + label + ")" + ext
}
