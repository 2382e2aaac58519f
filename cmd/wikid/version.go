package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/wikid/wikid/internal/encoder/builtin"
	"github.com/wikid/wikid/internal/staticembed"
)

// version and commit are set at build time with -ldflags
// "-X main.version=… -X main.commit=…" (make build and make dist do); a
// binary built without them tells what the Go toolchain recorded.
var (
	version = "dev"
	commit  = ""
)

type versionCommand struct{ env }

func (c *versionCommand) Usage() string {
	return `Usage: wikid version

Prints wikid's version and the commit it was built from, the Go version and
platform, and the built-in semantic models: the sentence encoder (provider
builtin) with the Maven artifact it was converted from, where its authors
publish it and its licence, and the word vectors (provider static, and
what builtin ranks with until the encoder has embedded a note) with the
npm package they come from; each with its model file's SHA-256 checksum.
`
}

func (c *versionCommand) Run(ctx context.Context, args []string) error {
	fs := newFlagSet("version", c.Usage(), c.stderr)
	if err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	bi, _ := debug.ReadBuildInfo()
	printVersion(c.stdout, stamp(version, commit, bi))
	return nil
}

// build is what a binary says of how it was built.
type build struct {
	Version, Commit string
	// Modified is set when the commit's tree had changes not committed.
	Modified bool
	// Go is the Go version; Platform the system and architecture.
	Go, Platform string
}

// stamp returns how the binary was built: the version and commit stamped
// with -ldflags, else the module version (go install …@v1.2.3) and the VCS
// revision that the Go toolchain recorded.
func stamp(version, commit string, bi *debug.BuildInfo) build {
	b := build{Version: version, Commit: commit, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return b
	}
	b.Go = bi.GoVersion
	if b.Version == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		b.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if b.Commit == "" {
				b.Commit = s.Value
			}
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "GOOS":
			b.Platform = s.Value + b.Platform[len(runtime.GOOS):]
		}
	}
	return b
}

// printVersion writes the version lines: wikid's, Go's, the model's.
func printVersion(w io.Writer, b build) {
	line := "wikid " + b.Version
	if b.Commit != "" {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if b.Modified {
			c += ", modified"
		}
		line += " (commit " + c + ")"
	}
	fmt.Fprintln(w, line)
	fmt.Fprintf(w, "go    %s %s\n", b.Go, b.Platform)
	if enc, err := builtin.DefaultSource(); err != nil {
		fmt.Fprintf(w, "model %s: %v\n", builtin.Name, err)
	} else {
		fmt.Fprintf(w, "model %s: %s (%s; %s), sha256 %s\n", builtin.Name, enc.Artifact, enc.Model, enc.License, enc.SHA256)
	}
	src, err := staticembed.BuiltinSource()
	if err != nil {
		fmt.Fprintf(w, "words none: %v\n", err)
		return
	}
	fmt.Fprintf(w, "words %s: %s %s, %d words, sha256 %s\n", staticembed.BuiltinName, src.Package, src.Version, src.Words, src.SHA256)
}
