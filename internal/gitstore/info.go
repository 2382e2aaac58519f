package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/wikid/wikid/internal/wiki"
)

// CommitInfo returns a commit's parents, author, committer and message. An
// unknown commit, or an object that is not one, is an error wrapping
// wiki.ErrNotFound.
func (s *Store) CommitInfo(ctx context.Context, commit string) (wiki.CommitInfo, error) {
	if err := s.check(ctx); err != nil {
		return wiki.CommitInfo{}, err
	}
	id, ok := parseHex(commit)
	if !ok {
		return wiki.CommitInfo{}, wiki.Errorf(wiki.CodeNotFound, "%q is not a commit id", commit)
	}
	typ, b, err := s.readObject(id)
	if err != nil {
		return wiki.CommitInfo{}, err
	}
	if typ != plumbing.CommitObject {
		return wiki.CommitInfo{}, wiki.Errorf(wiki.CodeNotFound, "%s is a %s, not a commit", id, typ)
	}
	return parseCommitInfo(id, b)
}

// parseCommitInfo decodes a commit object's headers and message.
func parseCommitInfo(id plumbing.Hash, b []byte) (wiki.CommitInfo, error) {
	info := wiki.CommitInfo{ID: id.String()}
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
			info.Author, err = parseSignature(val)
		case "committer":
			info.Committer, err = parseSignature(val)
		}
		if err != nil {
			return wiki.CommitInfo{}, fmt.Errorf("commit %s: %w", id, err)
		}
	}
	return info, nil
}

// parseSignature decodes "Name <email> 1700000000 +0200".
func parseSignature(b []byte) (wiki.Signature, error) {
	open, close := bytes.LastIndexByte(b, '<'), bytes.LastIndexByte(b, '>')
	if open < 0 || close < open {
		return wiki.Signature{}, fmt.Errorf("bad signature %q", b)
	}
	sig := wiki.Signature{Name: string(bytes.TrimSpace(b[:open])), Email: string(b[open+1 : close])}
	fields := bytes.Fields(b[close+1:])
	if len(fields) != 2 {
		return sig, nil // no date: keep the zero time, like git log shows
	}
	secs, err := strconv.ParseInt(string(fields[0]), 10, 64)
	if err != nil {
		return wiki.Signature{}, fmt.Errorf("bad signature time %q", fields[0])
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
