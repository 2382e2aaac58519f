package gitstore

import (
	"strings"

	"github.com/wikid/wikid/internal/wiki"
)

// splitPath splits a repository-relative file path into its names. It
// returns an error of code INVALID_PATH for an absolute path, an empty,
// "." or ".." name, a backslash or NUL, or a name under .git.
func splitPath(p string) ([]string, error) {
	if p == "" {
		return nil, wiki.Errorf(wiki.CodeInvalidPath, "empty path")
	}
	parts := strings.Split(p, "/")
	for _, name := range parts {
		switch {
		case name == "", name == ".", name == "..":
			return nil, wiki.Errorf(wiki.CodeInvalidPath, "path %q has an empty, \".\" or \"..\" segment", p)
		case strings.ContainsAny(name, "\\\x00"):
			return nil, wiki.Errorf(wiki.CodeInvalidPath, "path %q contains a backslash or NUL", p)
		case strings.EqualFold(name, ".git"):
			return nil, wiki.Errorf(wiki.CodeInvalidPath, "path %q is inside .git", p)
		}
	}
	return parts, nil
}

// splitDir splits a folder path; "" and "." are the root.
func splitDir(dir string) ([]string, error) {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" || dir == "." {
		return nil, nil
	}
	return splitPath(dir)
}
