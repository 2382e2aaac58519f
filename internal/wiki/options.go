package wiki

import (
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// DefaultKeepClosedProposals is how long a closed proposal is kept
// unless Options say otherwise.
const DefaultKeepClosedProposals = 90 * 24 * time.Hour

// DefaultMaxNoteSize is the largest note a mutation may write unless Options
// say otherwise.
const DefaultMaxNoteSize = 1 << 20

// Options configure a Wiki. The zero value is usable: Validate fills in the
// defaults.
type Options struct {
	// Author is who commits are attributed to when the caller names nobody.
	Author Identity
	// Committer is the daemon's own identity, recorded as committer.
	Committer Identity
	// ReadOnly refuses every mutation with ErrReadOnly.
	ReadOnly bool
	// Propose, when not nil, says whether a client ("name/version") is in
	// propose mode: its changes become proposals (see Proposal) instead of
	// commits on the branch.
	Propose func(client string) bool
	// ReviewURL is where the review pages are served ("" when they are
	// not), for the answers that tell where a proposal is reviewed.
	ReviewURL string
	// ProposalsLocal keeps proposals on this machine: a sync neither
	// pushes nor fetches their refs. By default they travel with the notes.
	ProposalsLocal bool
	// KeepClosedProposals is how long a closed proposal is kept, from its
	// close, before PruneProposals removes it; 0 means
	// DefaultKeepClosedProposals, a negative value forever.
	KeepClosedProposals time.Duration
	// Serving says the wiki outlives its calls (a daemon, a server): while
	// the search index is built, a text search answers from a scan of the
	// notes and the build goes on (see scans). A one-shot command waits
	// for the build, which it keeps for the next.
	Serving bool
	// Location is the time zone for daily notes and dates; default UTC.
	Location *time.Location
	// MaxNoteSize is the largest note content a mutation may write, in bytes.
	MaxNoteSize int64
	// Daily configures daily notes.
	Daily DailyOptions
	// Logger receives the core's logs; default slog.Default().
	Logger *slog.Logger
	// Now returns the current time; default time.Now.
	Now func() time.Time
}

// Identity is a name and an email address.
type Identity struct {
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
}

// String formats the identity as "Name <email>".
func (id Identity) String() string { return id.Name + " <" + id.Email + ">" }

// ParseIdentity reads "Name <email>", the way String writes it.
func ParseIdentity(s string) (Identity, error) {
	name, rest, ok := strings.Cut(s, "<")
	email, tail, ok2 := strings.Cut(rest, ">")
	id := Identity{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)}
	if !ok || !ok2 || strings.TrimSpace(tail) != "" || id.Name == "" || id.Email == "" {
		return Identity{}, fmt.Errorf("%q: want \"Name <email>\"", s)
	}
	return id, nil
}

// DailyOptions configure daily notes: where they live and what a new one
// starts from.
type DailyOptions struct {
	// Folder holds the daily notes, one per date named YYYY-MM-DD; default
	// "daily"; "/" is the repository's root (Obsidian's default).
	Folder string `yaml:"folder"`
	// Template is the note path of the template for a new daily note; empty
	// means a minimal frontmatter (title, type: daily, tags: [daily]).
	Template string `yaml:"template"`
}

// Validate fills in defaults and reports options that cannot work.
func (o *Options) Validate() error {
	if o.Committer == (Identity{}) {
		o.Committer = Identity{Name: "wikid", Email: "wikid@localhost"}
	}
	if o.Author == (Identity{}) {
		o.Author = o.Committer
	}
	for _, id := range []Identity{o.Author, o.Committer} {
		if strings.TrimSpace(id.Name) == "" || strings.ContainsAny(id.Name+id.Email, "<>\n") {
			return fmt.Errorf("invalid identity %q: want a name and an email without <, > or newlines", id.String())
		}
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	if o.MaxNoteSize == 0 {
		o.MaxNoteSize = DefaultMaxNoteSize
	}
	if o.MaxNoteSize < 0 {
		return fmt.Errorf("invalid max note size %d", o.MaxNoteSize)
	}
	switch f := strings.Trim(o.Daily.Folder, "/"); {
	case o.Daily.Folder == "":
		o.Daily.Folder = "daily"
	case f == "" || f == ".":
		o.Daily.Folder = "/"
	default:
		o.Daily.Folder = f
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.KeepClosedProposals == 0 {
		o.KeepClosedProposals = DefaultKeepClosedProposals
	}
	return nil
}
