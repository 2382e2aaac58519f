package gitformat

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commit is what links a commit object to the others: its tree and
// parents.
type Commit struct {
	Tree    plumbing.Hash
	Parents []plumbing.Hash
}

// ParseCommit reads the tree and parents from a commit object's headers.
// It returns an error for a malformed id or a missing tree.
func ParseCommit(b []byte) (*Commit, error) {
	c := &Commit{}
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) == 0 {
			break // end of headers
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		switch string(key) {
		case "tree":
			id, ok := ParseHex(string(val))
			if !ok {
				return nil, fmt.Errorf("parse commit: bad tree %q", val)
			}
			c.Tree = id
		case "parent":
			id, ok := ParseHex(string(val))
			if !ok {
				return nil, fmt.Errorf("parse commit: bad parent %q", val)
			}
			c.Parents = append(c.Parents, id)
		}
	}
	if c.Tree.IsZero() {
		return nil, fmt.Errorf("parse commit: no tree")
	}
	return c, nil
}

// Signature is a commit's author or committer.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

// CommitInfo is what a commit object says about itself.
type CommitInfo struct {
	Parents   []string // as written
	Author    Signature
	Committer Signature
	Message   string
}

// ParseCommitInfo decodes a commit object's parents, signatures and
// message. It returns an error for a malformed signature.
func ParseCommitInfo(b []byte) (CommitInfo, error) {
	var info CommitInfo
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) == 0 {
			info.Message = string(b)
			break
		}
		key, val, _ := bytes.Cut(line, []byte{' '})
		var err error
		switch string(key) {
		case "parent":
			info.Parents = append(info.Parents, string(val))
		case "author":
			info.Author, err = ParseSignature(val)
		case "committer":
			info.Committer, err = ParseSignature(val)
		}
		if err != nil {
			return CommitInfo{}, err
		}
	}
	return info, nil
}

// ParseSignature decodes "Name <email> 1700000000 +0200". A signature
// without a date has the zero time, as git log shows it. It returns an
// error when the email's brackets or the time are malformed.
func ParseSignature(b []byte) (Signature, error) {
	open, close := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open < 0 || close < open {
		return Signature{}, fmt.Errorf("bad signature %q", b)
	}
	sig := Signature{Name: string(bytes.TrimSpace(b[:open])), Email: string(b[open+1 : close])}
	fields := bytes.Fields(b[close+1:])
	if len(fields) != 2 {
		return sig, nil // no date: keep the zero time, like git log shows
	}
	secs, err := strconv.ParseInt(string(fields[0]), 10, 64)
	if err != nil {
		return Signature{}, fmt.Errorf("bad signature time %q", fields[0])
	}
	tz := string(fields[1])
	loc := time.UTC
	if len(tz) == 5 {
		h, _ := strconv.Atoi(tz[1:3])
		m, _ := strconv.Atoi(tz[3:5])
		off := h*3600 + m*60
		if tz[0] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	sig.When = time.Unix(secs, 0).In(loc)
	return sig, nil
}

// AppendSignature appends "Name <email> unix +hhmm" to b.
func AppendSignature(b []byte, sig Signature) []byte {
	b = append(b, sig.Name...)
	b = append(b, " <"...)
	b = append(b, sig.Email...)
	b = append(b, "> "...)
	b = strconv.AppendInt(b, sig.When.Unix(), 10)
	b = append(b, ' ')
	return sig.When.AppendFormat(b, "-0700")
}

// EncodeCommit returns a commit object; the message is made to end with a
// newline. The signatures must hold no '<', '>', newline or NUL.
func EncodeCommit(tree plumbing.Hash, parents []plumbing.Hash, author, committer Signature, message string) []byte {
	b := make([]byte, 0, 256+len(message))
	b = append(b, "tree "...)
	b = append(b, tree.String()...)
	b = append(b, '\n')
	for _, id := range parents {
		b = append(b, "parent "...)
		b = append(b, id.String()...)
		b = append(b, '\n')
	}
	b = append(b, "author "...)
	b = AppendSignature(b, author)
	b = append(b, "\ncommitter "...)
	b = AppendSignature(b, committer)
	b = append(b, "\n\n"...)
	b = append(b, message...)
	if !strings.HasSuffix(message, "\n") {
		b = append(b, '\n')
	}
	return b
}
