package gitformat

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// CheckRefName returns an error for a ref name that could escape the git
// directory or that git would not accept.
func CheckRefName(name string) error {
	bad := name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") ||
		strings.HasSuffix(name, ".lock") || strings.Contains(name, "..") ||
		strings.Contains(name, "//") || strings.ContainsAny(name, "\\ ~^:?*[\x00\x7f") ||
		strings.Contains(name, "@{")
	for _, r := range name {
		bad = bad || r < ' '
	}
	if bad {
		return fmt.Errorf("bad ref name %q", name)
	}
	return nil
}

// IsPseudoRef reports whether name looks like HEAD, ORIG_HEAD, FETCH_HEAD.
func IsPseudoRef(name string) bool {
	return strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") == "" && strings.HasSuffix(name, "HEAD")
}

// ParsePackedRefs reads the "<id> <name>" lines of a packed-refs file,
// skipping the header comment and peeled "^<id>" lines, and lines it cannot
// read.
func ParsePackedRefs(b []byte) map[string]plumbing.Hash {
	refs := make(map[string]plumbing.Hash)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		hex, name, ok := strings.Cut(line, " ")
		id, valid := ParseHex(hex)
		if ok && valid {
			refs[strings.TrimSpace(name)] = id
		}
	}
	return refs
}

// ReflogLine returns a reflog line as git writes it:
// "<old> <new> <name> <<email>> <unix> <+hhmm>\t<message>\n", the message
// on one line.
func ReflogLine(old, new plumbing.Hash, who Signature, message string) []byte {
	msg := strings.ReplaceAll(strings.TrimRight(message, "\n"), "\n", " ")
	b := make([]byte, 0, 128+len(msg))
	b = append(b, old.String()...)
	b = append(b, ' ')
	b = append(b, new.String()...)
	b = append(b, ' ')
	b = AppendSignature(b, who)
	b = append(b, '\t')
	b = append(b, msg...)
	return append(b, '\n')
}

// ReflogMessage is git's reflog message for a commit: "commit: <subject>",
// or "commit (initial): <subject>" for the first commit of a branch.
func ReflogMessage(message string, initial bool) string {
	subject, _, _ := strings.Cut(strings.TrimLeft(message, "\n"), "\n")
	if initial {
		return "commit (initial): " + subject
	}
	return "commit: " + subject
}
