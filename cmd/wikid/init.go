package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

type initCommand struct{ env }

func (c *initCommand) Usage() string {
	return `Usage: wikid init [DIR] [flags]

Makes DIR (default: the current folder) a wiki: a git repository on branch
main with a first commit.

A folder of notes (an Obsidian vault, docs) is committed as it is: every
note and attachment, every file that git would add, and nothing of wikid's
but a .gitignore that leaves out Obsidian's window layout, cache and trash
(lines added to an existing .gitignore only where missing) and a
.wikid.yaml configuration (unless there is one). A folder that is already
a git repository without commits is committed the same way; one with
commits is refused: wikid serves it as it is.

An empty or new folder (and a --bare repository) starts with a welcome
note, README.md, and .wikid.yaml.

The first commit is yours: --author, else the person git names
(GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, user.name and user.email), as for
every command that commits.

Flags:
`
}

const readmeNote = `---
title: Welcome
tags: [wiki]
---
# Welcome

This is a wiki kept by wikid. Every change is a git commit: review them with
` + "`git log`" + `, undo one with ` + "`wikid restore`" + `, and sync machines with git.

Link notes with double brackets: ` + "`[[Another note]]`" + ` links to the note
named or titled "Another note".
`

const defaultConfig = `# wikid configuration. Every key is optional.
# timezone: Europe/Berlin
daily:
  folder: daily
# Search by meaning, offline, with the built-in model (see the README):
# semantic:
#   provider: builtin
`

// vaultIgnores are the .gitignore lines init makes sure a folder of notes
// has: files Obsidian rewrites as you click around (the window layout, the
// cache), its trash and the Finder's litter. Obsidian's own settings and
// plugins stay tracked.
var vaultIgnores = []string{
	".obsidian/workspace.json",
	".obsidian/workspace-mobile.json",
	".obsidian/workspaces.json",
	".obsidian/cache",
	".trash/",
	".DS_Store",
}

func (c *initCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("init", c.Usage(), c.stderr)
	bare := fs.Bool("bare", false, "create a bare repository (no checked-out files), e.g. for a server")
	author := authorFlag(fs)
	if err := parseArgs(fs, args, 0, 1); err != nil {
		return err
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	empty, err := isEmptyDir(dir)
	if err != nil {
		return err
	}
	undo := &initUndo{}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		if *bare {
			return fmt.Errorf("%s is already a git repository: serve it as it is with 'wikid serve --repo %s'", dir, dir)
		}
	} else {
		if err := gitstore.Init(ctx, dir, *bare); err != nil {
			return err
		}
		undo.gitDir = filepath.Join(dir, ".git")
	}
	err = c.commit(ctx, dir, empty || *bare, *author, undo)
	if err != nil {
		if uerr := undo.run(); uerr != nil {
			return fmt.Errorf("%w (and the folder could not be put back as it was: %v)", err, uerr)
		}
	}
	return err
}

// commit makes the first commit: the welcome note, or the folder's files.
func (c *initCommand) commit(ctx context.Context, dir string, welcome bool, author string, undo *initUndo) error {
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
	id, err := settleAuthor(c.env, dir, opts, author)
	if err != nil {
		return err
	}
	if id != (wiki.Identity{}) {
		opts.Author = id
	}
	sig := func(id wiki.Identity) wiki.Signature {
		return wiki.Signature{Name: id.Name, Email: id.Email, When: opts.Now().In(opts.Location)}
	}
	req := wiki.CommitRequest{
		Author:    sig(opts.Author),
		Committer: sig(opts.Committer),
		Message:   "init: wiki\n\nWiki-Tool: init\nWiki-Client: " + caller().Client + "\n",
	}
	head, err := store.Head(ctx)
	if err != nil {
		return err
	}
	if head.Commit != "" {
		return fmt.Errorf("%s already has commits: serve it as it is with 'wikid serve --repo %s'", dir, dir)
	}
	var commit string
	var files, notes int
	if welcome {
		req.Changes = []wiki.FileChange{
			{Path: "README.md", Content: []byte(readmeNote)},
			{Path: config.FileName, Content: []byte(defaultConfig)},
		}
		if commit, err = store.Commit(ctx, req); err != nil {
			return err
		}
		files, notes = 2, 1
	} else {
		if err := undo.ensureLines(filepath.Join(dir, ".gitignore"), vaultIgnores); err != nil {
			return err
		}
		if err := undo.create(filepath.Join(dir, config.FileName), defaultConfig); err != nil {
			return err
		}
		ad, err := store.AdoptCheckout(ctx, req)
		if err != nil {
			return err
		}
		commit, files = ad.Commit, len(ad.Paths)
		for _, p := range ad.Paths {
			if _, _, ok := note.SplitFileName(p); ok {
				notes++
			}
		}
		for _, s := range ad.Skipped {
			fmt.Fprintf(c.stderr, "wikid: left out %s\n", s)
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	fmt.Fprintf(c.stdout, "created a wiki in %s: commit %s, %d note%s, %d file%s in all, authored by %s\n\n",
		abs, commit[:12], notes, plural(notes), files, plural(files), opts.Author)
	fmt.Fprintf(c.stdout, `Next, connect an MCP client, for example Claude Code:
  claude mcp add wiki -- wikid serve --repo %q
or try the command line:
  wikid search --repo %q 'some words'
`, abs, abs)
	return nil
}

// isEmptyDir reports whether dir is missing or holds nothing but .git.
func isEmptyDir(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if e.Name() != ".git" {
			return false, nil
		}
	}
	return true, nil
}

// initUndo remembers what init did to the folder, to put it back if the
// first commit fails.
type initUndo struct {
	gitDir    string            // created by init: removed
	created   []string          // files created: removed
	rewritten map[string][]byte // files appended to: their old content
}

// ensureLines appends to the file name the lines it lacks, creating it if
// missing.
func (u *initUndo) ensureLines(name string, lines []string) error {
	old, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	existed := err == nil
	have := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var add strings.Builder
	for _, l := range lines {
		if !have[l] {
			add.WriteString(l + "\n")
		}
	}
	if add.Len() == 0 {
		return nil
	}
	content := string(old)
	if content != "" && !strings.HasSuffix(content, "\n") {
		content += "\n"
	}
	content += "# Obsidian's window layout, cache and trash (added by wikid init)\n" + add.String()
	if err := os.WriteFile(name, []byte(content), 0o666); err != nil {
		return err
	}
	if existed {
		if u.rewritten == nil {
			u.rewritten = map[string][]byte{}
		}
		u.rewritten[name] = old
	} else {
		u.created = append(u.created, name)
	}
	return nil
}

// create writes the file name unless it exists.
func (u *initUndo) create(name, content string) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	u.created = append(u.created, name)
	_, err = f.WriteString(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// run puts the folder back as it was before init.
func (u *initUndo) run() error {
	var errs []error
	for _, name := range u.created {
		errs = append(errs, os.Remove(name))
	}
	for name, old := range u.rewritten {
		errs = append(errs, os.WriteFile(name, old, 0o666))
	}
	if u.gitDir != "" {
		errs = append(errs, os.RemoveAll(u.gitDir))
	}
	return errors.Join(errs...)
}
