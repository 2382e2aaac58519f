package gitdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	gitconfig "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/wikid/wikid/internal/gitstore/internal/gitformat"
)

// Identity is a person as git records them in a commit.
type Identity struct {
	Name, Email string
}

// UserIdentity returns the person git would record as the author of a
// commit made in the repository whose common directory is commonDir,
// looked up the way git does, each source winning over the ones after it:
//
//   - GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL from getenv;
//   - author.name and author.email, then user.name and user.email, from the
//     configuration files git reads, a later file winning: the system's
//     ($GIT_CONFIG_SYSTEM, else /etc/gitconfig; none when
//     $GIT_CONFIG_NOSYSTEM is set), the global ones ($GIT_CONFIG_GLOBAL;
//     else $XDG_CONFIG_HOME/git/config, by default ~/.config/git/config,
//     then ~/.gitconfig), and the repository's own;
//   - EMAIL from getenv, for the email only.
//
// include and includeIf are not followed. A name or an email found nowhere
// stays empty. It returns an error naming a configuration file that exists
// but cannot be read or parsed.
func UserIdentity(commonDir string, getenv func(string) string) (Identity, error) {
	id := Identity{Name: getenv("GIT_AUTHOR_NAME"), Email: getenv("GIT_AUTHOR_EMAIL")}
	var user, author Identity
	local := filepath.Join(commonDir, "config")
	for _, name := range configFiles(getenv, local) {
		b, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) && name != local {
			continue // as git does
		}
		if err != nil {
			return Identity{}, fmt.Errorf("read %s: %w", name, err)
		}
		cfg := gitconfig.New()
		if err := gitconfig.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
			return Identity{}, fmt.Errorf("parse %s: %w", name, err)
		}
		set(&user.Name, cfg.Section("user").Option("name"))
		set(&user.Email, cfg.Section("user").Option("email"))
		set(&author.Name, cfg.Section("author").Option("name"))
		set(&author.Email, cfg.Section("author").Option("email"))
	}
	for _, v := range []string{author.Name, user.Name} {
		if id.Name == "" {
			id.Name = v
		}
	}
	for _, v := range []string{author.Email, user.Email, getenv("EMAIL")} {
		if id.Email == "" {
			id.Email = v
		}
	}
	id.Name, id.Email = strings.TrimSpace(id.Name), strings.TrimSpace(id.Email)
	return id, nil
}

// set overwrites *dst with v unless v is empty.
func set(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// configFiles lists the configuration files git reads, in the order it
// reads them, ending with the repository's own (local).
func configFiles(getenv func(string) string, local string) []string {
	var files []string
	if getenv("GIT_CONFIG_NOSYSTEM") == "" || !gitformat.ParseBool(getenv("GIT_CONFIG_NOSYSTEM"), true) {
		if f := getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if f := getenv("GIT_CONFIG_GLOBAL"); f != "" {
		files = append(files, f)
	} else {
		home := getenv("HOME")
		if xdg := getenv("XDG_CONFIG_HOME"); xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		} else if home != "" {
			files = append(files, filepath.Join(home, ".config", "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	return append(files, local)
}
