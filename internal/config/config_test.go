package config

import (
	"strings"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/wiki"
)

func TestConfig_Layers(t *testing.T) {
	c := Default()
	if err := c.ApplyFile([]byte("timezone: Europe/Berlin\ndaily:\n  folder: journal\n  template: templates/daily\nauthor:\n  name: Ada\n  email: ada@example.com\nreview:\n  name: Lin\n  email: lin@example.com\n")); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"WIKID_TIMEZONE": "Asia/Tokyo", "WIKID_READ_ONLY": "true", "WIKID_MAX_NOTE_SIZE": "2048"}
	if err := c.ApplyEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	o := c.WikiOptions()
	if o.Location.String() != "Asia/Tokyo" || !o.ReadOnly || o.MaxNoteSize != 2048 ||
		o.Daily.Folder != "journal" || o.Daily.Template != "templates/daily" || o.Author.Name != "Ada" {
		t.Errorf("options %+v", o)
	}
	if c.Review != (wiki.Identity{Name: "Lin", Email: "lin@example.com"}) {
		t.Errorf("review %+v, want Lin from the file", c.Review)
	}
	if o.Committer.Name != "wikid" {
		t.Errorf("committer %+v, want the default", o.Committer)
	}
	if _, offset := time.Date(2024, 1, 1, 0, 0, 0, 0, o.Location).Zone(); offset != 9*3600 {
		t.Errorf("zone offset %d", offset)
	}
}

func TestConfig_Errors(t *testing.T) {
	tests := []struct {
		name string
		run  func(c *Config) error
		want string
	}{
		{"unknown key", func(c *Config) error { return c.ApplyFile([]byte("timezon: UTC\n")) }, "timezon"},
		{"bad yaml", func(c *Config) error { return c.ApplyFile([]byte("daily: [\n")) }, FileName},
		{"bad size", func(c *Config) error {
			return c.ApplyEnv(func(k string) string { return map[string]string{"WIKID_MAX_NOTE_SIZE": "big"}[k] })
		}, "WIKID_MAX_NOTE_SIZE"},
		{"bad bool", func(c *Config) error {
			return c.ApplyEnv(func(k string) string { return map[string]string{"WIKID_READ_ONLY": "maybe"}[k] })
		}, "WIKID_READ_ONLY"},
		{"bad zone", func(c *Config) error { c.TimeZone = "Mars/Olympus"; return c.Validate() }, "Mars/Olympus"},
		{"bad identity", func(c *Config) error { c.Author.Name = "a <b>"; return c.Validate() }, "identity"},
		{"review without email", func(c *Config) error {
			if err := c.ApplyFile([]byte("review:\n  name: Ada\n")); err != nil {
				return err
			}
			return c.Validate()
		}, "review:"},
		{"review with brackets", func(c *Config) error {
			c.Review = wiki.Identity{Name: "Ada", Email: "<ada@example.com>"}
			return c.Validate()
		}, "review:"},
		{"bad links.resolve", func(c *Config) error {
			if err := c.ApplyFile([]byte("links:\n  resolve: github\n")); err != nil {
				return err
			}
			return c.Validate()
		}, "links.resolve"},
		{"bad sync interval", func(c *Config) error {
			if err := c.ApplyFile([]byte("sync:\n  interval: 10ms\n")); err != nil {
				return err
			}
			return c.Validate()
		}, "interval"},
		{"sync interval not a duration", func(c *Config) error { return c.ApplyFile([]byte("sync:\n  interval: often\n")) }, "often"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			err := tt.run(&c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one naming %q", err, tt.want)
			}
		})
	}
	c := Default()
	if err := c.ApplyFile(nil); err != nil {
		t.Errorf("an empty file: %v", err)
	}
}

func TestConfig_ResolveLinks(t *testing.T) {
	yes, no := func() bool { return true }, func() bool { return false }
	tests := []struct {
		name     string
		file     string
		env      string
		obsidian func() bool
		want     wiki.LinkResolution
	}{
		{"default without .obsidian", "", "", no, wiki.ResolveWiki},
		{"default with .obsidian", "", "", yes, wiki.ResolveObsidian},
		{"file says wiki", "links:\n  resolve: wiki\n", "", yes, wiki.ResolveWiki},
		{"file says obsidian", "links:\n  resolve: obsidian\n", "", no, wiki.ResolveObsidian},
		{"env over file", "links:\n  resolve: obsidian\n", "wiki", yes, wiki.ResolveWiki},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			if err := c.ApplyFile([]byte(tt.file)); err != nil {
				t.Fatal(err)
			}
			if err := c.ApplyEnv(func(k string) string { return map[string]string{"WIKID_LINKS_RESOLVE": tt.env}[k] }); err != nil {
				t.Fatal(err)
			}
			if err := c.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := c.ResolveLinks(tt.obsidian); got != tt.want {
				t.Errorf("ResolveLinks = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfig_Sync(t *testing.T) {
	c := Default()
	if c.Sync != nil {
		t.Fatalf("sync on by default: %+v", c.Sync)
	}
	if err := c.ApplyFile([]byte("sync: {}\n")); err != nil || c.Sync == nil || c.Sync.Interval != 0 {
		t.Fatalf("sync: {} gives %+v, %v", c.Sync, err)
	}
	c = Default()
	if err := c.ApplyFile([]byte("sync:\n  interval: 5m\n  push_delay: 2s\n")); err != nil || c.Sync.Interval != 5*time.Minute || c.Sync.PushDelay != 2*time.Second {
		t.Fatalf("sync: %+v, %v", c.Sync, err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestConfig_Semantic(t *testing.T) {
	c := Default()
	if c.Semantic != nil {
		t.Fatalf("semantic on by default: %+v", c.Semantic)
	}
	good := "semantic:\n  base_url: http://localhost:11434/v1\n  model: nomic-embed-text\n  api_key_env: MY_KEY\n"
	if err := c.ApplyFile([]byte(good)); err != nil || c.Semantic == nil || c.Semantic.Model != "nomic-embed-text" || c.Semantic.APIKeyEnv != "MY_KEY" {
		t.Fatalf("%+v, %v", c.Semantic, err)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{
		"semantic: {}\n",
		"semantic:\n  base_url: localhost:11434\n  model: m\n",
		"semantic:\n  base_url: http://x/v1\n  model: m\n  dimensions: -1\n",
		"semantic:\n  base_url: http://x/v1\n  model: m\n  batch_size: 100000\n",
		"semantic:\n  provider: builtin\n  base_url: http://x/v1\n",
		"semantic:\n  provider: static\n  model: glove\n",
		"semantic:\n  provider: local\n",
	} {
		c := Default()
		if err := c.ApplyFile([]byte(bad)); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "semantic") {
			t.Errorf("%q: %v, want a semantic error", bad, err)
		}
	}
	for _, provider := range []string{SemanticBuiltin, SemanticStatic} {
		c = Default()
		if err := c.ApplyFile([]byte("semantic:\n  provider: " + provider + "\n")); err != nil || c.Validate() != nil {
			t.Errorf("%s: %v %v", provider, err, c.Validate())
		}
	}
	c = Default()
	if err := c.ApplyFile([]byte("semantic:\n  url: http://x\n")); err == nil {
		t.Error("an unknown semantic key passed")
	}
}

func TestProposals_Proposing(t *testing.T) {
	if (*Proposals)(nil).Proposing() != nil {
		t.Error("no section: someone proposes")
	}
	by := (&Proposals{Clients: []string{"claude-code"}}).Proposing()
	if !by("claude-code/1.0.3") || by("cursor/2") {
		t.Error("clients: wrong clients propose")
	}
	but := (&Proposals{AllBut: []string{"Cursor"}}).Proposing()
	if !but("claude-code/1.0.3") || but("cursor/2") || but("wikid-cli/0.9") {
		t.Error("all_but: wrong clients propose")
	}
	if err := (&Proposals{Clients: []string{"a"}, AllBut: []string{"b"}}).validate(); err == nil {
		t.Error("both ways accepted")
	}
}

func TestProposals_KeepClosed(t *testing.T) {
	for yaml, want := range map[string]struct {
		keep  time.Duration
		local bool
	}{
		"":                                        {wiki.DefaultKeepClosedProposals, false},
		"proposals: {local: true}":                {wiki.DefaultKeepClosedProposals, true},
		"proposals: {keep_closed: 30d}":           {30 * 24 * time.Hour, false},
		"proposals: {keep_closed: 36h}":           {36 * time.Hour, false},
		"proposals: {keep_closed: forever}":       {-1, false},
		"proposals: {keep_closed: 7d, local: no}": {7 * 24 * time.Hour, false},
	} {
		c := Default()
		if err := c.ApplyFile([]byte(yaml)); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("%q: %v", yaml, err)
		}
		o := c.WikiOptions()
		if err := o.Validate(); err != nil {
			t.Fatal(err)
		}
		if o.KeepClosedProposals != want.keep || o.ProposalsLocal != want.local {
			t.Errorf("%q: keep %v local %v, want %+v", yaml, o.KeepClosedProposals, o.ProposalsLocal, want)
		}
	}
	for _, bad := range []string{"0d", "-3d", "soon", "0s"} {
		c := Default()
		if err := c.ApplyFile([]byte("proposals: {keep_closed: " + bad + "}")); err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "keep_closed") {
			t.Errorf("keep_closed %q: %v", bad, err)
		}
	}
}
