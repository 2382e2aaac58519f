package main

import (
	"flag"

	"github.com/wikid/wikid/internal/wiki"
)

// mutationFlags are the flags every mutating subcommand shares.
type mutationFlags struct {
	message, expected string
	dryRun, json      bool
}

func addMutationFlags(fs *flag.FlagSet) *mutationFlags {
	m := &mutationFlags{}
	fs.StringVar(&m.message, "m", "", "why: becomes the commit body")
	fs.StringVar(&m.expected, "expected-version", "", "fail with CONFLICT unless the note is still at this version")
	fs.BoolVar(&m.dryRun, "dry-run", false, "show the diff and risk, commit nothing")
	fs.BoolVar(&m.json, "json", false, "print the result as JSON")
	return m
}

func (m *mutationFlags) mutation() wiki.Mutation {
	return wiki.Mutation{ExpectedVersion: m.expected, DryRun: m.dryRun, Message: m.message, Caller: caller()}
}
