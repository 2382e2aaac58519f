package note

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// windowsChars are the printable characters Windows does not allow in a
// file name ('\\' and '/' are separators, and CleanPath refuses control
// characters).
const windowsChars = `<>:"|?*`

// windowsDevices are the names Windows gives to devices, in upper case: a
// file can have none of them, whatever its extension ("con.md", "Nul.txt"),
// in any folder. The digits include 0 and the superscripts ¹ ² ³, which
// Windows treats as digits here.
var windowsDevices = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
}

func init() {
	for _, d := range "0123456789¹²³" {
		windowsDevices["COM"+string(d)] = true
		windowsDevices["LPT"+string(d)] = true
	}
}

// invisibleNames name the format characters most often met in names, for
// the error that refuses them.
var invisibleNames = map[rune]string{
	0x00AD: "SOFT HYPHEN",
	0x061C: "ARABIC LETTER MARK",
	0x200B: "ZERO WIDTH SPACE",
	0x200E: "LEFT-TO-RIGHT MARK",
	0x200F: "RIGHT-TO-LEFT MARK",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "BYTE ORDER MARK",
}

// checkPortable checks each segment of file, the file of a new note or a
// new folder, against the rules that let every machine check it out, and
// that keep a name from passing for another: no character Windows refuses
// (a leading "C:" is a drive there), no Windows device name, no invisible
// format character. p is the path as given, for the message.
func checkPortable(p, file string) error {
	for i, seg := range strings.Split(file, "/") {
		if i == 0 && hasDriveLetter(seg) {
			return pathErr("path %q starts with %q, which Windows reads as drive %s; ':' is not allowed in a name on Windows",
				p, seg[:2], strings.ToUpper(seg[:2])).
				WithHint("give a path inside the wiki without ':', such as %s", strings.Replace(p, ":", "-", 1))
		}
		if i := strings.IndexAny(seg, windowsChars); i >= 0 {
			return pathErr("path %q: '%c' is not allowed in a name on Windows", p, seg[i]).
				WithHint("Windows refuses the characters %s in names, so the note could not be checked out there: use another character, such as -", windowsChars)
		}
		if dev := windowsDevice(seg); dev != "" {
			return pathErr("path %q: %q is the name of a device on Windows, whatever the extension, so no file can have it there", p, dev).
				WithHint("choose another name; a longer one such as %s-notes is fine", dev)
		}
		if r := invisibleRune(seg); r >= 0 {
			return pathErr("path %q holds %s", p, describeInvisible(r)).
				WithHint("remove it: with it, the name looks like one it is not")
		}
	}
	return nil
}

// checkEnds checks that no segment of p, a new note path (without its
// extension) or folder, begins or ends with whitespace or ends with a dot.
// The segments "." and ".." are left to CleanPath's rules.
func checkEnds(p string) error {
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			continue
		}
		first, _ := utf8.DecodeRuneInString(seg)
		last, _ := utf8.DecodeLastRuneInString(seg)
		switch {
		case unicode.IsSpace(first) || unicode.IsSpace(last):
			return pathErr("path %q has a segment beginning or ending with whitespace: %q", p, seg).
				WithHint("Windows drops trailing spaces from names, and a path is trimmed: remove the space")
		case last == '.':
			return pathErr("path %q has a segment ending with a dot: %q", p, seg).
				WithHint("Windows drops trailing dots from names; remove it.")
		}
	}
	return nil
}

// windowsDevice returns the device name that seg is on Windows, as written
// (its part before the first dot, trailing spaces removed), or "".
func windowsDevice(seg string) string {
	stem, _, _ := strings.Cut(seg, ".")
	stem = strings.TrimRight(stem, " ")
	if len(stem) > 7 || !windowsDevices[strings.ToUpper(stem)] {
		return ""
	}
	return stem
}

// invisibleRune returns the first format character (Unicode category Cf)
// of seg that names have no use for, or -1. The joiners U+200C and U+200D,
// which Persian, the Indic scripts and emoji sequences need, are allowed,
// and so are tag characters that finish a flag emoji (U+1F3F4 followed by
// tags up to CANCEL TAG, as in the flag of Scotland); anywhere else tag
// characters are invisible text.
func invisibleRune(seg string) rune {
	for i := 0; i < len(seg); {
		r, n := utf8.DecodeRuneInString(seg[i:])
		i += n
		switch {
		case r == 0x1F3F4:
			i += flagTags(seg[i:])
		case r == 0x200C || r == 0x200D:
		case unicode.Is(unicode.Cf, r):
			return r
		}
	}
	return -1
}

// flagTags returns the length of the tag sequence that s starts with, one
// or more tag characters U+E0020 to U+E007E ended by CANCEL TAG U+E007F,
// or 0 when s does not start with one.
func flagTags(s string) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		switch {
		case 0xE0020 <= r && r <= 0xE007E:
			n += size
		case r == 0xE007F && n > 0:
			return n + size
		default:
			return 0
		}
	}
	return 0
}

// describeInvisible names a format character for the error that refuses
// it: "U+202E RIGHT-TO-LEFT OVERRIDE, an invisible character that reorders
// how text is displayed".
func describeInvisible(r rune) string {
	name := ""
	if n, ok := invisibleNames[r]; ok {
		name = " " + n
	}
	what := "an invisible format character"
	if 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C {
		what = "an invisible character that reorders how text is displayed"
	}
	return fmt.Sprintf("%U%s, %s", r, name, what)
}
