package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/wiki"
)

type initCommand struct{ env }

func (c *initCommand) Usage() string {
	return `Usage: wikid init [flags] [DIR]

Creates a new wiki: a git repository in DIR (default: the current folder)
with branch main and a first commit holding a README note and a .wikid.yaml
configuration. An existing git repository is refused: wikid serves one as
it is, without init.

Flags:
`
}

const readmeNote = `---
title: Welcome
tags: [wiki]
---
# Welcome

This is a wiki kept by wikid. Every change is a git commit: review them with
` + "`git log`" + `, undo one with a restore, and sync machines with git.

Link notes with [[double brackets]].
`

const defaultConfig = `# wikid configuration. Every key is optional.
# timezone: Europe/Berlin
daily:
  folder: daily
`

func (c *initCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("init", c.Usage(), c.stderr)
	bare := fs.Bool("bare", false, "create a bare repository (no checked-out files), e.g. for a server")
	if err := parseArgs(fs, args, 0, 1); err != nil {
		return err
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		return fmt.Errorf("%s is already a git repository: serve it as it is with 'wikid serve --repo %s'", dir, dir)
	}
	if err := gitstore.Init(ctx, dir, *bare); err != nil {
		return err
	}
	store, err := gitstore.Open(ctx, dir, gitstore.Options{})
	if err != nil {
		return err
	}
	defer store.Close(ctx)
	cfg := config.Default()
	if err := cfg.ApplyEnv(c.getenv); err != nil {
		return err
	}
	opts := cfg.WikiOptions()
	if err := opts.Validate(); err != nil {
		return err
	}
	sig := func(id wiki.Identity) wiki.Signature {
		return wiki.Signature{Name: id.Name, Email: id.Email, When: opts.Now().In(opts.Location)}
	}
	commit, err := store.Commit(ctx, wiki.CommitRequest{
		Changes: []wiki.FileChange{
			{Path: "README.md", Content: []byte(readmeNote)},
			{Path: config.FileName, Content: []byte(defaultConfig)},
		},
		Author:    sig(opts.Author),
		Committer: sig(opts.Committer),
		Message:   "init: wiki\n\nWiki-Tool: init\nWiki-Client: " + caller().Client + "\n",
	})
	if errors.Is(err, wiki.ErrHeadMoved) {
		return fmt.Errorf("%s already has commits: serve it as it is with 'wikid serve --repo %s'", dir, dir)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "created a wiki in %s (commit %s)\n", dir, commit[:12])
	return nil
}
