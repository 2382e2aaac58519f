package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Init creates an empty repository at dir (created if missing) whose HEAD
// points at the unborn branch main: a checkout, or a bare repository. It
// returns an error if dir already holds a repository.
func Init(ctx context.Context, dir string, bare bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return fmt.Errorf("init %s: %w", dir, err)
	}
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
		Bare:        bare,
	})
	if errors.Is(err, git.ErrRepositoryAlreadyExists) {
		return fmt.Errorf("init %s: already a git repository", dir)
	}
	if err != nil {
		return fmt.Errorf("init %s: %w", dir, err)
	}
	return nil
}
