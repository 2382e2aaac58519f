package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// initDaily is where a new wiki keeps its daily notes, as init finds it in
// the folder: Obsidian's daily-notes settings when the vault has the core
// plugin on, else a folder named daily in the letter case the folder
// already has.
type initDaily struct {
	// folder is a path in the repository, "/" for its root.
	folder   string
	template string
	// from says where folder came from, for the configuration's comment.
	from string
	// warnings are said to the person running init.
	warnings []string
}

// obsidianDaily is the part of .obsidian/daily-notes.json that wikid
// reads. Obsidian writes the file only once a setting differs from the
// core plugin's defaults: notes at the vault's root, named YYYY-MM-DD, no
// template.
type obsidianDaily struct {
	Folder   string `json:"folder"`
	Format   string `json:"format"`
	Template string `json:"template"`
}

// wikidDateFormat is how wikid names a daily note, in Obsidian's (moment.js)
// spelling.
const wikidDateFormat = "YYYY-MM-DD"

// findDaily returns where the folder dir keeps its daily notes.
func findDaily(dir string) initDaily {
	d := initDaily{folder: "daily"}
	if on, err := dailyNotesOn(dir); err != nil {
		d.warnings = append(d.warnings, fmt.Sprintf("%v; daily notes go to the folder daily", err))
	} else if on {
		s, err := readObsidianDaily(dir)
		if err != nil {
			d.warnings = append(d.warnings, fmt.Sprintf("%v; daily notes go to the folder daily", err))
		} else {
			d.folder, d.from = strings.Trim(filepath.ToSlash(s.Folder), "/"), "Obsidian's daily notes settings"
			if d.folder == "" || d.folder == "." {
				d.folder = "/"
			}
			d.template = strings.TrimSuffix(strings.Trim(filepath.ToSlash(s.Template), "/"), ".md")
			if s.Format != "" && s.Format != wikidDateFormat {
				d.warnings = append(d.warnings, fmt.Sprintf("Obsidian names daily notes %q, wikid names them %s: "+
					"a day's note that Obsidian made and the one wikid makes are two notes; set Obsidian's "+
					"date format to %s to share them", s.Format, wikidDateFormat, wikidDateFormat))
			}
		}
	}
	if d.folder != "/" {
		if f, ok := existingCase(dir, d.folder); ok && f != d.folder {
			d.folder = f
			if d.from == "" {
				d.from = "the folder's own name"
			}
		}
	}
	return d
}

// dailyNotesOn reports whether dir is an Obsidian vault with the daily
// notes core plugin on: an .obsidian folder whose core-plugins.json lists
// daily-notes (as a list of the plugins on, or a map of each to whether it
// is on), or has no such file (the plugin is on by default).
func dailyNotesOn(dir string) (bool, error) {
	if st, err := os.Stat(filepath.Join(dir, ".obsidian")); err != nil || !st.IsDir() {
		return false, nil
	}
	name := filepath.Join(dir, ".obsidian", "core-plugins.json")
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("read Obsidian's core plugins: %w", err)
	}
	var on map[string]bool
	if json.Unmarshal(data, &on) == nil {
		return on["daily-notes"], nil
	}
	var list []string
	if err := json.Unmarshal(data, &list); err != nil {
		return false, fmt.Errorf("read Obsidian's core plugins: .obsidian/core-plugins.json is neither a list nor a map of plugins: %w", err)
	}
	for _, p := range list {
		if p == "daily-notes" {
			return true, nil
		}
	}
	return false, nil
}

// readObsidianDaily reads .obsidian/daily-notes.json, the core plugin's
// defaults when it is missing.
func readObsidianDaily(dir string) (obsidianDaily, error) {
	var s obsidianDaily
	data, err := os.ReadFile(filepath.Join(dir, ".obsidian", "daily-notes.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err == nil {
		err = json.Unmarshal(data, &s)
	}
	if err != nil {
		return s, fmt.Errorf("read Obsidian's daily notes settings (.obsidian/daily-notes.json): %w", err)
	}
	return s, nil
}

// existingCase returns folder (slash-separated, under dir) as the folders
// that exist spell it, segment by segment, when they differ from it only
// in letter case: a second folder so named would be the same folder on
// macOS and Windows. An exact name wins over one in another case; a
// segment with no folder ends the walk, the rest kept as given.
func existingCase(dir, folder string) (string, bool) {
	segs := strings.Split(folder, "/")
	changed := false
	at := dir
	for i, seg := range segs {
		entries, err := os.ReadDir(at)
		if err != nil {
			break
		}
		match := ""
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			if e.Name() == seg {
				match = seg
				break
			}
			if match == "" && strings.EqualFold(e.Name(), seg) {
				match = e.Name()
			}
		}
		if match == "" {
			break
		}
		if match != seg {
			segs[i], changed = match, true
		}
		at = filepath.Join(at, match)
	}
	return strings.Join(segs, "/"), changed
}

// config returns the .wikid.yaml of a new wiki with these daily notes.
func (d initDaily) config() string {
	var b strings.Builder
	b.WriteString("# wikid configuration. Every key is optional.\n# timezone: Europe/Berlin\n")
	b.WriteString("# Search by meaning, offline, with the built-in model (see the README):\n# semantic:\n#   provider: builtin\n")
	b.WriteString("daily:\n")
	if d.from != "" {
		fmt.Fprintf(&b, "  # from %s\n", d.from)
	}
	fmt.Fprintf(&b, "  folder: %s\n", yamlString(d.folder))
	if d.template != "" {
		fmt.Fprintf(&b, "  template: %s\n", yamlString(d.template))
	}
	return b.String()
}

// yamlString returns s as a double-quoted YAML scalar (a JSON string is a
// YAML one): a folder named "true", "~" or "a: b" stays a name.
func yamlString(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}
