package tool

import (
	"context"
	"errors"

	"github.com/wikid/wikid/internal/wiki"
)

// ErrBadURI is returned when a resource URI does not name what its
// template wants, such as a note path after wiki://note/, or names no
// resource of the profile: the server answers it with the protocol's
// resource-not-found code.
var ErrBadURI = errors.New("bad resource URI")

// Prompt is one of a profile's prompts, in plain Go: the server publishes
// it, checks its required arguments and sends what Render returns.
type Prompt struct {
	Name, Title, Description string
	Arguments                []PromptArgument
	// Groups are the tool groups the prompt reads and asks the model to
	// use: it is served with all of them only.
	Groups []string
	// Writes is set for a prompt that asks the model to change notes: a
	// read-only server leaves it out.
	Writes bool
	// Render returns the prompt's messages for its arguments, the
	// required ones present. A wiki error about a value the client gave
	// (NOT_FOUND, INVALID_PARAMS and the like) is a bad argument.
	Render func(ctx context.Context, env *Env, args map[string]string) ([]Message, error)
}

// PromptArgument is an argument of a prompt.
type PromptArgument struct {
	Name, Description string
	Required          bool
}

// Message is a user message of a prompt: Text, or, when URI is set, the
// resource at URI embedded with its MIME type and Text.
type Message struct {
	Text string
	URI  string
	MIME string
}

// Resource is a resource of a profile, or a family of them under a URI
// template (RFC 6570, as wiki://note/{+path}) when Template is set.
type Resource struct {
	URI                     string
	Template                bool
	Name, Description, MIME string
	// Group is the tool group it belongs to: it is served with that group.
	Group string
	// Read returns the text of the resource at uri. ErrBadURI, and a
	// NOT_FOUND wiki error, answer resource-not-found; another wiki error
	// about a value the client gave, a bad argument.
	Read func(ctx context.Context, env *Env, uri string) (string, error)
}

// Watch is what a subscription to a resource watches, as the profile's
// WatchFunc says: the server tells its subscribers of each commit that
// changes it.
type Watch struct {
	Kind WatchKind
	// Key is the note's path for WatchNote, as the wiki has it (the URI
	// may differ in case), the tag for WatchTag, and for WatchProposal the
	// start of the ids of the proposals watched (a whole id for one).
	Key string
	// Exact is set when Key names a note that exists: only a change of
	// that path counts. A note that does not exist yet counts when it is
	// made, under the path in any case.
	Exact bool
}

// WatchKind is the kind of thing a subscription watches.
type WatchKind int

// The kinds of Watch.
const (
	WatchNote     WatchKind = iota // a note, or what derives from it alone (its history)
	WatchAny                       // a list every commit changes (recent changes, activity)
	WatchTag                       // the notes with a tag: commits that change a note with it, before or after
	WatchNothing                   // what never changes (a commit)
	WatchProposal                  // proposals: those whose id starts with Key, changed or decided
)

// WatchFunc returns what a subscription to uri watches, or an error when
// uri names no resource of the profile (ErrBadURI, or the wiki's error).
type WatchFunc func(ctx context.Context, env *Env, uri string) (Watch, error)

// CompleteFunc completes the argument arg, given so far as value, of a
// prompt (uri is empty) or of the resource template whose URI the client
// gave. An argument it has nothing for gets an empty completion.
type CompleteFunc func(ctx context.Context, env *Env, uri, arg, value string) (wiki.Completion, error)
