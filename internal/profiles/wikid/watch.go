package wikid

import (
	"context"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// watch returns what a subscription to uri watches, or an error when uri
// names no resource of the profile.
func watch(ctx context.Context, env *tool.Env, uri string) (tool.Watch, error) {
	if pw, ok, err := proposalWatch(ctx, env, uri); ok {
		return pw, err
	}
	w := env.Wiki
	switch {
	case strings.HasPrefix(uri, noteURIPrefix), strings.HasPrefix(uri, historyURIPrefix):
		prefix := noteURIPrefix
		if strings.HasPrefix(uri, historyURIPrefix) {
			prefix = historyURIPrefix
		}
		p, err := uriPath(uri, prefix)
		if err != nil {
			return tool.Watch{}, err
		}
		p, _, err = note.CleanPath(p)
		if err != nil {
			return tool.Watch{}, err
		}
		if r, err := w.Read(ctx, wiki.ReadRequest{Path: p, MetadataOnly: true}); err == nil {
			return tool.Watch{Kind: tool.WatchNote, Key: r.Path, Exact: true}, nil
		}
		return tool.Watch{Kind: tool.WatchNote, Key: p}, nil
	case uri == recentURI:
		return tool.Watch{Kind: tool.WatchAny}, nil
	case strings.HasPrefix(uri, activityURIPrefix):
		since, err := uriPath(uri, activityURIPrefix)
		if err != nil {
			return tool.Watch{}, err
		}
		if _, err := day(w, since); err != nil {
			return tool.Watch{}, err
		}
		return tool.Watch{Kind: tool.WatchAny}, nil
	case strings.HasPrefix(uri, tagURIPrefix):
		tag, err := uriPath(uri, tagURIPrefix)
		if err != nil {
			return tool.Watch{}, err
		}
		return tool.Watch{Kind: tool.WatchTag, Key: tag}, nil
	case strings.HasPrefix(uri, commitURIPrefix):
		rev, err := uriPath(uri, commitURIPrefix)
		if err != nil {
			return tool.Watch{}, err
		}
		if _, err := w.Commit(ctx, rev); err != nil {
			return tool.Watch{}, err
		}
		if strings.HasPrefix(strings.ToUpper(rev), "HEAD") {
			return tool.Watch{Kind: tool.WatchAny}, nil // names another commit after each
		}
		return tool.Watch{Kind: tool.WatchNothing}, nil
	}
	return tool.Watch{}, tool.ErrBadURI
}
