package gitformat

import (
	"fmt"
	"strconv"
	"strings"
)

// SplitRevision splits "main~2^" into its base, "main", and its suffixes,
// "~2^".
func SplitRevision(rev string) (base, ops string) {
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		return rev[:i], rev[i:]
	}
	return rev, ""
}

// ParseCount reads the number after the suffix op, '~' or '^', at the
// start of s (1 when absent) and returns the remaining suffixes. It returns
// an error for a syntax git has and this does not read, or a count too
// large.
func ParseCount(s string, op byte) (int, string, error) {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 {
		if s != "" && s[0] != '~' && s[0] != '^' {
			return 0, "", fmt.Errorf("unsupported revision syntax %q", string(op)+s)
		}
		return 1, s, nil
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n > 1<<20 {
		return 0, "", fmt.Errorf("bad count %q", s[:i])
	}
	return n, s[i:], nil
}

// IsShortHex reports whether s can be a short object id: 4 to 40 hex
// digits.
func IsShortHex(s string) bool {
	if len(s) < 4 || len(s) > 40 {
		return false
	}
	for i := range len(s) {
		if _, ok := unhex(s[i]); !ok {
			return false
		}
	}
	return true
}
