package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlagSet returns a flag set that prints the command's usage on -h and
// reports bad flags as errors rather than exiting.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args into fs with the flags and the positional
// arguments in any order: Go's flag package stops at the first positional
// argument, so this sets each one aside and goes on parsing. "--" ends the
// flags (everything after it is positional) and "-" alone is positional.
// Afterwards fs.Args() holds the positional arguments in their order. It
// returns flag.ErrHelp for -h, and the flag package's error, with how to
// pass an argument that begins with "-", for an unknown flag.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		chunk := args[i : i+1]
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if f := fs.Lookup(name); f != nil && !hasValue && !isBoolFlag(f) && i+1 < len(args) {
			chunk = args[i : i+2]
			i++
		}
		if err := fs.Parse(chunk); err != nil {
			if fs.Lookup(name) == nil && err != flag.ErrHelp {
				return fmt.Errorf("%w (an argument that begins with \"-\" goes after \"--\": wikid %s [flags] -- %s)", err, fs.Name(), a)
			}
			return err
		}
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// isBoolFlag reports whether f takes no value, as -json does.
func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// parseArgs parses args with parseFlags and checks that at least min and at
// most max (-1: any number of) positional arguments remain; otherwise it
// says so, prints the usage and asks for exit status 2.
func parseArgs(fs *flag.FlagSet, args []string, min, max int) error {
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if n := fs.NArg(); n < min || max >= 0 && n > max {
		want := fmt.Sprintf("%d to %d arguments", min, max)
		switch {
		case max < 0:
			want = fmt.Sprintf("at least %d argument%s", min, plural(min))
		case min == max:
			want = fmt.Sprintf("%d argument%s", min, plural(min))
		}
		fmt.Fprintf(fs.Output(), "wikid %s: want %s, got %d", fs.Name(), want, n)
		if n > 0 {
			fmt.Fprintf(fs.Output(), " (%s)", quoteAll(fs.Args()))
		}
		fmt.Fprint(fs.Output(), "\n\n")
		fs.Usage()
		return exitError(2)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}
