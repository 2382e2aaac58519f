package textdiff

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
)

// FileDiff is the change of one file. A created file has no OldPath (Old is
// ignored), a deleted file no NewPath (New is ignored); a file with two
// different paths is a rename, possibly with changed content.
type FileDiff struct {
	OldPath, NewPath string // repository paths, slash-separated
	Old, New         []byte
}

// Unified returns a git-compatible unified diff of files, in their order,
// with ctx lines of context around each change (git's default is 3; a
// negative ctx counts as 0). Changes at most 2*ctx unchanged lines apart
// share a hunk, as in git.
//
// Each file starts with "diff --git a/<old> b/<new>", then "new file mode
// 100644" or "deleted file mode 100644" where apt, "similarity index",
// "rename from" and "rename to" for a rename, and an "index" line with
// abbreviated git blob ids; then "--- a/<old>" and "+++ b/<new>" ("/dev/null"
// for a created or deleted file), and hunks "@@ -l,s +l,s @@" whose lines end
// with "\ No newline at end of file" where the text does. Paths are quoted as
// git quotes them. Files whose path and content are unchanged, and entries
// with neither path, produce nothing; so do identical inputs. The result is
// accepted by `git apply` and reproduces every new file byte for byte.
func Unified(files []FileDiff, ctx int) string {
	text, _ := UnifiedHunks(files, ctx)
	return text
}

// UnifiedHunks returns Unified's diff of files and, for each file in their
// order, the hunks it shows: the same diff as structure, computed once. A
// file that produces nothing, or no hunk (a pure rename), has none.
func UnifiedHunks(files []FileDiff, ctx int) (string, [][]Hunk) {
	var b strings.Builder
	hunks := make([][]Hunk, len(files))
	for i, f := range files {
		hunks[i] = writeFile(&b, f, max(ctx, 0))
	}
	return b.String(), hunks
}

// writeFile writes the diff of one file and returns its hunks.
func writeFile(b *strings.Builder, f FileDiff, ctx int) []Hunk {
	oldData, newData := f.Old, f.New
	oldName, newName := f.OldPath, f.NewPath
	switch {
	case oldName == "" && newName == "":
		return nil
	case oldName == "":
		oldData, oldName = nil, newName
	case newName == "":
		newData, newName = nil, oldName
	case oldName == newName && bytes.Equal(oldData, newData):
		return nil
	}
	a, z := splitLines(string(oldData)), splitLines(string(newData))
	cs := diffLines(a, z)

	b.WriteString("diff --git " + quotePath("a/", oldName) + " " + quotePath("b/", newName) + "\n")
	switch {
	case f.OldPath == "":
		b.WriteString("new file mode 100644\nindex " + nullID + ".." + blobID(newData) + "\n")
	case f.NewPath == "":
		b.WriteString("deleted file mode 100644\nindex " + blobID(oldData) + ".." + nullID + "\n")
	default:
		if oldName != newName {
			b.WriteString("similarity index " + strconv.Itoa(similarity(a, z, cs)) + "%\n")
			b.WriteString("rename from " + quotePath("", oldName) + "\n")
			b.WriteString("rename to " + quotePath("", newName) + "\n")
		}
		if len(cs) > 0 {
			b.WriteString("index " + blobID(oldData) + ".." + blobID(newData) + " 100644\n")
		}
	}
	if len(cs) == 0 {
		return nil
	}
	if f.OldPath == "" {
		b.WriteString("--- /dev/null\n")
	} else {
		b.WriteString("--- " + quotePath("a/", oldName) + spaceTab(oldName) + "\n")
	}
	if f.NewPath == "" {
		b.WriteString("+++ /dev/null\n")
	} else {
		b.WriteString("+++ " + quotePath("b/", newName) + spaceTab(newName) + "\n")
	}
	hunks := makeHunks(a, z, cs, ctx)
	for _, h := range hunks {
		writeHunk(b, h)
	}
	return hunks
}

// similarity estimates, as a percentage, how much of a renamed file's content
// survived: the bytes of unchanged lines over the size of the larger version.
func similarity(a, z []string, cs []change) int {
	var total, kept int
	for _, l := range a {
		total += len(l)
	}
	kept = total
	for _, c := range cs {
		for _, l := range a[c.A : c.A+c.Del] {
			kept -= len(l)
		}
	}
	var newTotal int
	for _, l := range z {
		newTotal += len(l)
	}
	total = max(total, newTotal)
	if total == 0 {
		return 100
	}
	return kept * 100 / total
}

// nullID is the abbreviated id git shows for a missing blob.
const nullID = "0000000"

// blobID returns the abbreviated git object id (SHA-1) of a blob holding
// data.
func blobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))[:7]
}

// spaceTab returns the tab git puts after a "---" or "+++" name that
// contains a space, so that the name's end is unambiguous.
func spaceTab(name string) string {
	if strings.Contains(name, " ") {
		return "\t"
	}
	return ""
}

// quotePath returns prefix+name, C-quoted as git quotes paths (with
// core.quotePath on) if name has control characters, '"', '\\', DEL or
// non-ASCII bytes.
func quotePath(prefix, name string) string {
	if !needsQuote(name) {
		return prefix + name
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(prefix + name) {
		switch c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c >= 0x7f {
				b.WriteByte('\\')
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func needsQuote(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}
