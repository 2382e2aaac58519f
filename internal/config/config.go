// Package config assembles wikid's configuration from, in increasing order of
// precedence: defaults, the repository's .wikid.yaml, WIKID_* environment
// variables, and command-line flags (applied by the caller on the struct).
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/wikid/wikid/internal/wiki"
)

// FileName is the configuration file at the root of a wiki repository.
const FileName = ".wikid.yaml"

// Config is everything wikid can be configured with.
type Config struct {
	// Author attributes commits when the client names nobody.
	Author wiki.Identity `yaml:"author"`
	// Committer is the daemon's identity.
	Committer wiki.Identity `yaml:"committer"`
	// Review, when set, is the person the review pages' marks, undos and
	// restores are by, in place of the repository's git user.
	Review wiki.Identity `yaml:"review"`
	// TimeZone is an IANA zone name for daily notes and dates; default UTC.
	TimeZone string `yaml:"timezone"`
	// MaxNoteSize is the largest note a mutation may write, in bytes.
	MaxNoteSize int64 `yaml:"max_note_size"`
	// ReadOnly refuses every mutation.
	ReadOnly bool `yaml:"read_only"`
	// Daily configures daily notes.
	Daily wiki.DailyOptions `yaml:"daily"`
	// Links configures how links resolve.
	Links Links `yaml:"links"`
	// Sync, when present, makes the daemon sync with the branch's
	// upstream by itself.
	Sync *Sync `yaml:"sync"`
	// Semantic, when present, turns on search by meaning through an
	// embeddings endpoint.
	Semantic *Semantic `yaml:"semantic"`
	// Proposals, when present, names the clients whose changes are
	// proposals.
	Proposals *Proposals `yaml:"proposals"`
}

// Semantic configures search by meaning: the built-in model, or an
// OpenAI-compatible embeddings endpoint (Ollama, llama.cpp's server, LM
// Studio, vLLM, a hosted API).
type Semantic struct {
	// Provider is endpoint (the default when base_url is set), builtin
	// (the sentence encoder built into wikid, offline, English only) or
	// static (the word vectors built into wikid: instant, but blind to
	// word order).
	Provider string `yaml:"provider"`
	// BaseURL is the API's base, such as http://localhost:11434/v1 for
	// Ollama; wikid posts to BaseURL/embeddings.
	BaseURL string `yaml:"base_url"`
	// Model is the embedding model, such as nomic-embed-text.
	Model string `yaml:"model"`
	// Dimensions asks for vectors of this length, from models that can
	// shorten theirs; 0 takes the model's own.
	Dimensions int `yaml:"dimensions"`
	// APIKeyEnv names the environment variable holding the API key, for
	// endpoints that want one; the key itself never goes in the file.
	APIKeyEnv string `yaml:"api_key_env"`
	// BatchSize is how many chunks go in one request; default 64.
	BatchSize int `yaml:"batch_size"`
}

// Sync configures the daemon's sync with the branch's upstream (see
// package gitsync). An empty block ("sync: {}") turns it on with the
// defaults.
type Sync struct {
	// Interval is how often to fetch and integrate; default 60s.
	Interval time.Duration `yaml:"interval"`
	// PushDelay is how long after a commit to push, so that commits made
	// within it go together; default 5s.
	PushDelay time.Duration `yaml:"push_delay"`
}

// Links configures how wiki links ([[target]], ![[target]]) resolve.
type Links struct {
	// Resolve is obsidian (by file name anywhere, or by the end of the
	// path; never by title or alias) or wiki (by path, then title, then
	// alias). Empty means obsidian when the repository has an .obsidian/
	// folder, else wiki: see ResolveLinks.
	Resolve wiki.LinkResolution `yaml:"resolve"`
}

// The semantic providers.
const (
	SemanticEndpoint = "endpoint"
	SemanticBuiltin  = "builtin"
	SemanticStatic   = "static"
)

// Default returns the built-in configuration.
func Default() Config {
	return Config{
		Committer:   wiki.Identity{Name: "wikid", Email: "wikid@localhost"},
		TimeZone:    "UTC",
		MaxNoteSize: wiki.DefaultMaxNoteSize,
		Daily:       wiki.DailyOptions{Folder: "daily"},
	}
}

// ApplyFile overlays the YAML of a .wikid.yaml file. Unknown keys are an
// error, so that a typo does not pass silently.
func (c *Config) ApplyFile(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", FileName, err)
	}
	return nil
}

// ApplyEnv overlays WIKID_AUTHOR_NAME, WIKID_AUTHOR_EMAIL, WIKID_TIMEZONE,
// WIKID_MAX_NOTE_SIZE, WIKID_READ_ONLY and WIKID_LINKS_RESOLVE from getenv.
func (c *Config) ApplyEnv(getenv func(string) string) error {
	if v := getenv("WIKID_AUTHOR_NAME"); v != "" {
		c.Author.Name = v
	}
	if v := getenv("WIKID_AUTHOR_EMAIL"); v != "" {
		c.Author.Email = v
	}
	if v := getenv("WIKID_TIMEZONE"); v != "" {
		c.TimeZone = v
	}
	if v := getenv("WIKID_MAX_NOTE_SIZE"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("WIKID_MAX_NOTE_SIZE: %q is not a number of bytes", v)
		}
		c.MaxNoteSize = n
	}
	if v := getenv("WIKID_READ_ONLY"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("WIKID_READ_ONLY: %q is not true or false", v)
		}
		c.ReadOnly = b
	}
	if v := getenv("WIKID_LINKS_RESOLVE"); v != "" {
		c.Links.Resolve = wiki.LinkResolution(v)
	}
	return nil
}

// Validate reports settings that cannot work.
func (c *Config) Validate() error {
	if r := c.Review; r != (wiki.Identity{}) && (strings.TrimSpace(r.Name) == "" || strings.TrimSpace(r.Email) == "" || strings.ContainsAny(r.Name+r.Email, "<>\n")) {
		return fmt.Errorf("review: want a name and an email without <, > or newlines, for example name: Ada and email: ada@example.com")
	}
	if err := c.Proposals.validate(); err != nil {
		return err
	}
	if c.Sync != nil && (c.Sync.Interval < 0 || c.Sync.PushDelay < 0) {
		return fmt.Errorf("sync: interval and push_delay must not be negative")
	}
	if c.Sync != nil && c.Sync.Interval > 0 && c.Sync.Interval < time.Second {
		return fmt.Errorf("sync: interval %s is under a second", c.Sync.Interval)
	}
	if s := c.Semantic; s != nil && (s.Provider == SemanticBuiltin || s.Provider == SemanticStatic) {
		if s.BaseURL != "" || s.Model != "" || s.Dimensions != 0 || s.APIKeyEnv != "" {
			return fmt.Errorf("semantic: the %s provider takes no base_url, model, dimensions or api_key_env", s.Provider)
		}
	} else if s != nil {
		switch {
		case s.Provider != "" && s.Provider != SemanticEndpoint:
			return fmt.Errorf("semantic: provider %q: use builtin, static, or endpoint (the default) with a base_url and a model", s.Provider)
		case s.BaseURL == "" || s.Model == "":
			return fmt.Errorf("semantic: base_url and model are required, for example base_url: http://localhost:11434/v1 and model: nomic-embed-text")
		case !strings.HasPrefix(s.BaseURL, "http://") && !strings.HasPrefix(s.BaseURL, "https://"):
			return fmt.Errorf("semantic: base_url %q: want an http:// or https:// URL", s.BaseURL)
		case s.Dimensions < 0 || s.Dimensions > 65536:
			return fmt.Errorf("semantic: dimensions %d: want 0 (the model's own) up to 65536", s.Dimensions)
		case s.BatchSize < 0 || s.BatchSize > 4096:
			return fmt.Errorf("semantic: batch_size %d: want 0 (64) up to 4096", s.BatchSize)
		}
	}
	if _, err := time.LoadLocation(c.TimeZone); err != nil {
		return fmt.Errorf("timezone %q: %w", c.TimeZone, err)
	}
	switch c.Links.Resolve {
	case "", wiki.ResolveObsidian, wiki.ResolveWiki:
	default:
		return fmt.Errorf("links.resolve %q: use obsidian or wiki, or leave it out to use obsidian when the repository has an .obsidian/ folder", c.Links.Resolve)
	}
	o := c.WikiOptions()
	return o.Validate()
}

// WikiOptions returns the options for wiki.Open. Call Validate first.
func (c *Config) WikiOptions() wiki.Options {
	loc, err := time.LoadLocation(c.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	keep, _ := c.Proposals.keepClosed()
	return wiki.Options{
		Author: c.Author, Committer: c.Committer, ReadOnly: c.ReadOnly,
		Location: loc, MaxNoteSize: c.MaxNoteSize, Daily: c.Daily,
		Propose:        c.Proposals.Proposing(),
		ProposalsLocal: c.Proposals != nil && c.Proposals.Local, KeepClosedProposals: keep,
	}
}

// ResolveLinks returns how wiki links resolve: Links.Resolve when set,
// else obsidian when the repository has an .obsidian/ folder (hasObsidian
// reports it), else wiki.
func (c *Config) ResolveLinks(hasObsidian func() bool) wiki.LinkResolution {
	switch {
	case c.Links.Resolve != "":
		return c.Links.Resolve
	case hasObsidian != nil && hasObsidian():
		return wiki.ResolveObsidian
	}
	return wiki.ResolveWiki
}
