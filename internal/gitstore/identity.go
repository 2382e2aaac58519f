package gitstore

import (
	"github.com/wikid/wikid/internal/gitstore/internal/gitdir"
	"github.com/wikid/wikid/internal/wiki"
)

// UserIdentity returns the person git would record as the author of a
// commit made in this repository, looked up the way git does (see
// gitdir.UserIdentity: the environment, then the configuration files). It
// returns an error naming a configuration file that exists but cannot be
// read or parsed.
func (s *Store) UserIdentity(getenv func(string) string) (wiki.Identity, error) {
	return userIdentity(s.commonDir, getenv)
}

// userIdentity is UserIdentity for the repository whose common directory
// is commonDir.
func userIdentity(commonDir string, getenv func(string) string) (wiki.Identity, error) {
	id, err := gitdir.UserIdentity(commonDir, getenv)
	return wiki.Identity(id), err
}
