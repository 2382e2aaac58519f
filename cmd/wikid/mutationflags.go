package main

import (
	"flag"
	"fmt"

	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/wiki"
)

// mutationFlags are the flags every mutating subcommand shares besides
// --json and --author, which its command line holds.
type mutationFlags struct {
	message, expected string
	dryRun            bool
}

// addMutationFlags registers on cl the flags every mutating subcommand
// shares: -m, --expected-version, --dry-run, --json and --author.
func addMutationFlags(cl *commandLine) *mutationFlags {
	m := &mutationFlags{}
	cl.StringVar(&m.message, "m", "", "why: becomes the commit body")
	cl.StringVar(&m.expected, "expected-version", "", "fail with CONFLICT unless the note is still at this version")
	cl.BoolVar(&m.dryRun, "dry-run", false, "show the diff and risk, commit nothing")
	cl.jsonFlag()
	cl.authorFlag()
	return m
}

// authorFlag registers --author: who a command's commit is by.
func authorFlag(fs *flag.FlagSet) *string {
	return fs.String("author", "", `commit as "Name <email>" (default: you, as git knows you: GIT_AUTHOR_NAME/EMAIL, user.name/email)`)
}

// mutation is the mutation the flags ask for, made by who.
func (m *mutationFlags) mutation(who wiki.Caller) wiki.Mutation {
	return wiki.Mutation{ExpectedVersion: m.expected, DryRun: m.dryRun, Message: m.message, Caller: who}
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
