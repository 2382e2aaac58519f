package wikid

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// complete returns the values that complete value for an argument named
// arg, of a prompt or of the template at uri: note paths, folders, tags,
// revisions or days; none for any other.
func complete(ctx context.Context, env *tool.Env, uri, arg, value string) (wiki.Completion, error) {
	if strings.HasPrefix(uri, commitURIPrefix) {
		arg = "rev"
	}
	w := env.Wiki
	switch arg {
	case "path":
		return w.CompleteNotes(ctx, value, wiki.MaxCompletions)
	case "folder":
		return w.CompleteFolders(ctx, value, wiki.MaxCompletions)
	case "tag":
		return w.CompleteTags(ctx, value, wiki.MaxCompletions)
	case "rev":
		return w.CompleteRevisions(ctx, value, wiki.MaxCompletions)
	case "since", "date":
		return w.CompleteDates(ctx, value, wiki.MaxCompletions)
	}
	return wiki.Completion{}, nil
}
