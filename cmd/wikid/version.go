package main

import (
	"context"
	"fmt"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

type versionCommand struct{ env }

func (c *versionCommand) Usage() string {
	return "Usage: wikid version\n\nPrints wikid's version, the Go version and the VCS revision it was built from.\n"
}

func (c *versionCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("version", c.Usage(), c.stderr)
	if err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	rev := ""
	goVersion := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " (" + s.Value[:12] + ")"
			}
		}
	}
	fmt.Fprintf(c.stdout, "wikid %s%s %s\n", version, rev, goVersion)
	return nil
}
