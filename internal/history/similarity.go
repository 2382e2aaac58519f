package history

import (
	"bytes"
	"slices"
)

// Similarity scores, as git's diffcore-rename computes them: MaxScore is
// 100%, and a file is a rename of another when the score is at least
// minScore (git's default -M50%), or minBasenameScore for the base-name
// pass.
const (
	maxScore         = 60000
	minScore         = 30000
	minBasenameScore = minScore + (maxScore-minScore)/2
)

// hashBase is the modulus of git's span hashes (diffcore-delta.c).
const hashBase = 107927

// span is the bytes of one chunk hash in a file.
type span struct {
	hash uint32
	n    int64
}

// spans returns git's chunk counts of a file: the file is cut after every
// "\n" and every 64 bytes, each chunk hashed, and the bytes counted per
// hash; in text, a "\r" before a "\n" is skipped. The result is sorted by
// hash.
func spans(b []byte) []span {
	text := !isBinary(b)
	counts := map[uint32]int64{}
	var accum1, accum2 uint32
	n := int64(0)
	for i := 0; i < len(b); i++ {
		c := uint32(b[i])
		if text && c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		old1 := accum1
		accum1 = (accum1 << 7) ^ (accum2 >> 25)
		accum2 = (accum2 << 7) ^ (old1 >> 25)
		accum1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(accum1+accum2*0x61)%hashBase] += n
		n, accum1, accum2 = 0, 0, 0
	}
	if n > 0 {
		counts[(accum1+accum2*0x61)%hashBase] += n
	}
	out := make([]span, 0, len(counts))
	for h, n := range counts {
		out = append(out, span{h, n})
	}
	slices.SortFunc(out, func(a, b span) int { return int(a.hash) - int(b.hash) })
	return out
}

// copied returns how many bytes of src's chunks dst also has, chunk hash by
// chunk hash.
func copied(src, dst []span) int64 {
	var sc int64
	j := 0
	for _, s := range src {
		for j < len(dst) && dst[j].hash < s.hash {
			j++
		}
		if j < len(dst) && dst[j].hash == s.hash {
			sc += min(s.n, dst[j].n)
			j++
		}
	}
	return sc
}

// similarity returns git's estimate of how much of dst came from src, from
// 0 to maxScore, or 0 when the sizes differ too much for the score to
// reach min or when either content is missing.
func similarity(src, dst *candidate, min int) int {
	if src.missing || dst.missing {
		return 0
	}
	maxSize := max(len(src.content), len(dst.content))
	baseSize := len(src.content) + len(dst.content) - maxSize
	delta := maxSize - baseSize
	if int64(maxSize)*int64(maxScore-min) < int64(delta)*maxScore {
		return 0
	}
	if maxSize == 0 {
		return 0
	}
	return int(copied(src.spans(), dst.spans()) * maxScore / int64(maxSize))
}

// isBinary reports whether git would treat content as binary: a NUL byte
// in its first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
