package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/wiki"
)

// mutationFlags are the flags every mutating subcommand shares.
type mutationFlags struct {
	message, expected string
	dryRun, json      bool
	author            *string
	who               wiki.Caller // set by open
}

func addMutationFlags(fs *flag.FlagSet) *mutationFlags {
	m := &mutationFlags{}
	fs.StringVar(&m.message, "m", "", "why: becomes the commit body")
	fs.StringVar(&m.expected, "expected-version", "", "fail with CONFLICT unless the note is still at this version")
	fs.BoolVar(&m.dryRun, "dry-run", false, "show the diff and risk, commit nothing")
	fs.BoolVar(&m.json, "json", false, "print the result as JSON")
	m.author = authorFlag(fs)
	return m
}

// authorFlag registers --author: who a command's commit is by.
func authorFlag(fs *flag.FlagSet) *string {
	return fs.String("author", "", `commit as "Name <email>" (default: you, as git knows you: GIT_AUTHOR_NAME/EMAIL, user.name/email)`)
}

func (m *mutationFlags) mutation() wiki.Mutation {
	return wiki.Mutation{ExpectedVersion: m.expected, DryRun: m.dryRun, Message: m.message, Caller: m.who}
}

// open opens the wiki at dir for a command that commits as the person at
// the command line (see settleAuthor).
func (m *mutationFlags) open(ctx context.Context, e env, dir string) (*wiki.Wiki, func(), error) {
	w, release, who, err := openWikiAs(ctx, e, dir, *m.author)
	m.who = who
	return w, release, err
}

// settleAuthor returns the person a command line commit is by: the --author
// flag (flag), else the person git names for the repository at dir
// (GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL, else author.* or user.* of git's
// configuration), else nobody, which leaves the wiki's own author (the one
// .wikid.yaml or WIKID_AUTHOR_NAME and WIKID_AUTHOR_EMAIL name) or, without
// one, wikid itself, which it says on standard error with how to set a
// name. A git configuration wikid cannot read is reported the same way.
func settleAuthor(e env, dir string, opts wiki.Options, flag string) (wiki.Identity, error) {
	if flag != "" {
		return parseIdentity(flag)
	}
	id, err := gitstore.UserIdentityAt(dir, e.getenv)
	switch {
	case err == nil && id.Name != "" && id.Email != "":
		return id, nil
	case err != nil:
		fmt.Fprintf(e.stderr, "wikid: %v\n", err)
	}
	if opts.Author == (wiki.Identity{}) || opts.Author == opts.Committer {
		fmt.Fprintf(e.stderr, "wikid: git names nobody (user.name, user.email): committing as %s; "+
			"set yours with git config --global user.name \"Your Name\" and user.email, or pass --author \"Name <email>\"\n", opts.Committer)
	}
	return wiki.Identity{}, nil
}
