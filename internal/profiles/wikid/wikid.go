package wikid

import (
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/tools"
)

// Name is the profile's name, the default one.
const Name = "wikid"

// Profile is wikid's own profile: its tools, prompts, resources,
// completions and subscriptions.
func Profile() tool.Profile {
	p := tools.Profile()
	p.Prompts = prompts()
	p.Resources = append(resources(), proposalResources()...)
	p.Complete = complete
	p.Watch = watch
	return p
}

// say words a text of the core in the profile's words.
func say(s string) string { return words.Say(s) }

// words name wikid's own tools in the core's references.
var words = tools.Profile().Words
