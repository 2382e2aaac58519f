package gitformat

import "strings"

// ParseBool reads a git config boolean, def when unset or unrecognized.
func ParseBool(v string, def bool) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	case "false", "no", "off", "0":
		return false
	}
	return def
}
