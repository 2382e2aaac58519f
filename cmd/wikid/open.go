package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/wikid/wikid/internal/config"
	"github.com/wikid/wikid/internal/daemon"
	"github.com/wikid/wikid/internal/embed"
	"github.com/wikid/wikid/internal/encoder/builtin"
	"github.com/wikid/wikid/internal/gitstore"
	"github.com/wikid/wikid/internal/graph"
	"github.com/wikid/wikid/internal/history"
	"github.com/wikid/wikid/internal/index"
	"github.com/wikid/wikid/internal/semantic"
	"github.com/wikid/wikid/internal/staticembed"
	"github.com/wikid/wikid/internal/tools"
	"github.com/wikid/wikid/internal/wiki"
)

// repoFlag registers --repo on fs: the wiki repository, default WIKID_REPO or
// the current directory.
func repoFlag(fs *flag.FlagSet, e env) *string {
	def := e.getenv("WIKID_REPO")
	if def == "" {
		def = "."
	}
	return fs.String("repo", def, "the wiki's git repository (or any folder inside it); default $WIKID_REPO or .")
}

// openWiki returns the wiki at dir and a function that releases it: the
// daemon's own wiki when the command runs in the daemon (see forward), else
// one opened for the command, configured by defaults, the repository's
// .wikid.yaml at HEAD, the environment and edit.
func openWiki(ctx context.Context, e env, dir string, edit func(*config.Config)) (*wiki.Wiki, func(), error) {
	if e.shared != nil {
		return e.shared(e.path(dir))
	}
	w, err := openWikiWith(ctx, e, dir, false, edit)
	if err != nil {
		return nil, nil, lockedIndex(ctx, e, dir, err)
	}
	return w, func() { w.Close(context.WithoutCancel(ctx)) }, nil
}

// openWikiAs is openWiki for a command that commits, with the caller its
// commits name: the person at the command line, as settleAuthor finds them
// (author is the --author flag, or "").
func openWikiAs(ctx context.Context, e env, dir, author string) (*wiki.Wiki, func(), wiki.Caller, error) {
	w, release, err := openWiki(ctx, e, dir, nil)
	if err != nil {
		return nil, nil, wiki.Caller{}, err
	}
	who := caller()
	if who.Author, err = settleAuthor(e, e.path(dir), w.Options(), author); err != nil {
		release()
		return nil, nil, wiki.Caller{}, err
	}
	return w, release, who, nil
}

// openWikiWith opens the wiki at dir; serving is set for a daemon or a
// server, whose wiki outlives its calls (see wiki.Options.Serving).
func openWikiWith(ctx context.Context, e env, dir string, serving bool, edit func(*config.Config)) (*wiki.Wiki, error) {
	logger := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, err := gitstore.Open(ctx, dir, gitstore.Options{Logger: logger})
	if errors.Is(err, gitstore.ErrNoRepository) {
		return nil, noRepository(dir, err)
	}
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(ctx, e, store)
	if err == nil && edit != nil {
		edit(&cfg)
	}
	if store.Unwritable() != "" {
		cfg.ReadOnly = true
	}
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		store.Close(ctx)
		return nil, err
	}
	opts := cfg.WikiOptions()
	opts.Logger, opts.Serving = logger, serving
	idx, err := index.Open(ctx, filepath.Join(store.Dir(), "index"), index.Options{Logger: logger, Location: opts.Location})
	if err != nil {
		store.Close(ctx)
		return nil, err
	}
	hist, err := history.Open(ctx, store, history.Options{Logger: logger})
	if err != nil {
		idx.Close(ctx)
		store.Close(ctx)
		return nil, err
	}
	sem, err := openSemantic(ctx, e, cfg.Semantic, store, logger)
	if err != nil {
		hist.Close(ctx)
		idx.Close(ctx)
		store.Close(ctx)
		return nil, err
	}
	deps := wiki.Deps{Store: store, Index: idx, History: hist, Graph: linkGraph(ctx, cfg, store, dir)}
	if sem != nil {
		deps.Semantic = sem
	}
	w, err := wiki.Open(ctx, deps, opts)
	if err != nil {
		if sem != nil {
			sem.Close(ctx)
		}
		hist.Close(ctx)
		idx.Close(ctx)
		store.Close(ctx)
		return nil, err
	}
	return w, nil
}

// openSemantic opens the semantic index when the configuration has a
// semantic: block; nil when it has none.
func openSemantic(ctx context.Context, e env, c *config.Semantic, store wiki.Store, logger *slog.Logger) (*semantic.Index, error) {
	if c == nil {
		return nil, nil
	}
	dir := filepath.Join(store.Dir(), "semantic")
	switch c.Provider {
	case config.SemanticStatic:
		if !staticembed.Available() {
			return nil, fmt.Errorf("semantic: provider static: %w", staticembed.ErrNotBuilt)
		}
		return semantic.Open(ctx, dir, staticembed.Lazy{}, semantic.Options{Logger: logger, Reads: staticembed.Lazy{}.Reads})
	case config.SemanticBuiltin:
		return semantic.Open(ctx, dir, builtin.Lazy{}, builtinOptions(logger))
	}
	o := embed.Options{BaseURL: c.BaseURL, Model: c.Model, Dimensions: c.Dimensions, BatchSize: c.BatchSize}
	if c.APIKeyEnv != "" {
		if o.APIKey = e.getenv(c.APIKeyEnv); o.APIKey == "" {
			logger.Warn("semantic: the API key's variable is not set", "variable", c.APIKeyEnv)
		}
	}
	client, err := embed.New(o)
	if err != nil {
		return nil, err
	}
	return semantic.Open(ctx, dir, client, semantic.Options{Logger: logger})
}

// builtinOptions are the semantic index's options with the built-in
// sentence encoder. The word vectors, when the binary has them, decide
// which texts it reads (the encoder's vocabulary is English, but spells
// any Latin or Cyrillic text out in pieces without an unknown token, so
// the share of [UNK] does not tell a language apart; the word vectors'
// rule does, measured on 35 languages), and rank the notes the encoder
// has not embedded yet. One batch embeds at a time: the encoder spreads
// each over the cores itself, and no batch starts while a search by
// meaning runs. While searches come, the encoder runs on a core fewer, so
// that a query's forward pass (whose workers meet at two barriers a layer)
// does not wait on workers the background batch has descheduled. A name
// resolved by meaning needs the encoder's own least cosine, higher than
// the word vectors', and its meaning weighs more in a hybrid search.
func builtinOptions(logger *slog.Logger) semantic.Options {
	o := semantic.Options{Logger: logger, Workers: 1, Threshold: builtin.ResolveThreshold, TextShare: builtin.TextShare, Share: func(cores int) {
		if m, err := builtin.Default(); err == nil {
			m.SetMaxWorkers(cores)
		}
	}}
	if staticembed.Available() {
		o.Reads, o.Static = staticembed.Lazy{}.Reads, staticembed.Lazy{}
	}
	return o
}

// lockedIndex explains an index that another process holds: the
// repository's daemon, when one runs (named by its pid, and how to stop
// it), or another wikid.
func lockedIndex(ctx context.Context, e env, dir string, err error) error {
	if !errors.Is(err, index.ErrLocked) {
		return err
	}
	ne := wiki.Errorf(wiki.CodeLocked, "%v", err)
	if ep, eerr := endpoint(e, dir); eerr == nil {
		stop := fmt.Sprintf("'wikid daemon stop --repo %s'", repositoryFolder(ep.GitDir))
		if st, serr := daemon.GetStatus(ctx, ep); serr == nil {
			return ne.WithHint("the daemon of this repository holds it (pid %d, socket %s): run without --no-daemon or WIKID_NO_DAEMON "+
				"to go through it, or stop it with %s", st.PID, st.Socket, stop)
		}
		if pid, held := daemon.Holder(ep); held {
			return ne.WithHint("the daemon of this repository holds it (pid %d): it is starting or stopping; "+
				"try again in a moment, or stop it with %s", pid, stop)
		}
	}
	return ne.WithHint("another wikid holds it in its own process (one started with --no-daemon or WIKID_NO_DAEMON, " +
		"or by a wikid older than this one): stop that process, or let clients share the daemon")
}

// noRepository explains that dir is not in a wiki, and what to run.
func noRepository(dir string, err error) error {
	return wiki.Errorf(wiki.CodeNotFound, "%v", err).
		WithHint("run 'wikid init %s' to make it a wiki (a folder of notes is committed as it is), "+
			"or name the wiki with --repo DIR or WIKID_REPO", dir)
}

// loadConfig reads .wikid.yaml from HEAD (so a bare repository has one too)
// and overlays the environment.
func loadConfig(ctx context.Context, e env, store wiki.Store) (config.Config, error) {
	cfg := config.Default()
	head, err := store.Head(ctx)
	if err != nil {
		return cfg, err
	}
	snap, err := store.Snapshot(ctx, head.Commit)
	if err != nil {
		return cfg, err
	}
	if _, data, err := snap.Read(ctx, config.FileName); err == nil {
		if err := cfg.ApplyFile(data); err != nil {
			return cfg, err
		}
	} else if !errors.Is(err, wiki.ErrNotFound) {
		return cfg, err
	}
	return cfg, cfg.ApplyEnv(e.getenv)
}

// linkGraph returns the wiki's link graph: one that resolves links as
// links.resolve says when it is set, else one that tells from each commit
// whether the repository is an Obsidian vault (see graph.NewDetecting),
// starting from what HEAD and the checkout say.
func linkGraph(ctx context.Context, cfg config.Config, store wiki.Store, dir string) *graph.Graph {
	if cfg.Links.Resolve != "" {
		return graph.NewResolving(cfg.Links.Resolve)
	}
	top := checkoutTop(dir)
	checkout := func() bool {
		st, err := os.Stat(filepath.Join(top, ".obsidian"))
		return err == nil && st.IsDir()
	}
	if top == "" {
		checkout = nil
	}
	return graph.NewDetecting(cfg.ResolveLinks(func() bool { return hasObsidianFolder(ctx, store, checkout) }), checkout)
}

// hasObsidianFolder reports whether the repository is an Obsidian vault:
// HEAD has an .obsidian folder or a .gitignore that leaves it out, or the
// checkout has one (checkout reports it; nil for no checkout).
func hasObsidianFolder(ctx context.Context, store wiki.Store, checkout func() bool) bool {
	if head, err := store.Head(ctx); err == nil && head.Commit != "" {
		if snap, err := store.Snapshot(ctx, head.Commit); err == nil {
			if files, err := snap.Files(ctx, ".obsidian"); err == nil && len(files) > 0 {
				return true
			}
			if _, data, err := snap.Read(ctx, ".gitignore"); err == nil && graph.IgnoresObsidian(data) {
				return true
			}
		}
	}
	return checkout != nil && checkout()
}

// checkoutTop returns the top folder of the checkout that holds dir, ""
// when there is none (a bare repository).
func checkoutTop(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
}

// caller is who the command line acts as.
func caller() wiki.Caller { return wiki.Caller{Client: "wikid-cli/" + version} }

// printJSON writes v as indented JSON, as the MCP tool of that name
// returns it in its structured content (see tools.ResultJSON).
func printJSON(w io.Writer, tool string, v any) error {
	raw, err := tools.ResultJSON(tool, v, cliWords)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err = w.Write(b.Bytes())
	return err
}

// readInput returns the content argument, or standard input when it is "-"
// or absent.
func readInput(e env, arg string, given bool) (string, error) {
	if given && arg != "-" {
		return arg, nil
	}
	if e.stdinTTY {
		fmt.Fprintln(e.stderr, "reading content from standard input (end with Ctrl-D)…")
	}
	b, err := io.ReadAll(e.stdin)
	return string(b), err
}
