package roux

import (
	"context"
	"encoding/json"
	"math"
	"path"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

const instructions = `Roux graph tools over a git repository of markdown notes (served by wikid). A node's id is ` +
	`its file path in lower case, such as notes/graphcore.md. Every change is one git commit.`

var words = wiki.Words{
	"read": "get_node", "write": "create_node", "edit": "update_node", "metadata": "update_node",
	"delete": "delete_node", "move": "update_node with a new title", "apply": "update_node",
	"list": "list_nodes", "search": "search_by_tags", "resolve": "resolve_nodes", "grep": "list_nodes",
	"links": "get_neighbors", "broken_links": "get_neighbors", "tags": "search_by_tags", "sync": "git pull and git push",
	"history": "git log", "diff": "git diff", "blame": "git blame", "activity": "git log",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "create_node",
	"expected_version": "a fresh get_node", "overwrite": "update_node", "regex_off": "a plain query",
	"read_only": "a read-only server", "version": "a commit",
	// A node moves by its new title; no edits, no count of matches, no
	// cursors (list_nodes pages by offset).
	"new_path": "title", "expected_matches": "", "edits": "", "cursor": "cursor", "next_cursor": "cursor",
}

// Profile is the profile's tool set, as a server serves it.
func Profile() tool.Profile {
	return tool.Profile{Tools: toolSet, Instructions: instructions, Words: words, Plain: true, ErrorText: rxError}
}

func toolSet() []*tool.Tool {
	return []*tool.Tool{rxGetNode(), rxNeighbors(), rxFindPath(), rxHubs(), rxSearchByTags(), rxRandom(), rxCreate(), rxUpdate(),
		rxDelete(), rxList(), rxResolve(), rxExist(), rxSearch()}
}

// Roux's truncation limits, in characters.
const (
	rxPrimaryChars  = 10000
	rxListChars     = 500
	rxNeighborChars = 200
	rxMaxNeighbors  = 20
)

// rxCodes are Roux's error codes for wikid's.
var rxCodes = map[wiki.Code]string{
	wiki.CodeInvalidParams: "INVALID_PARAMS", wiki.CodeInvalidPath: "INVALID_PARAMS", wiki.CodeInvalidQuery: "INVALID_PARAMS",
	wiki.CodeAlreadyExists: "NODE_EXISTS", wiki.CodeNotFound: "NODE_NOT_FOUND", wiki.CodeLinkIntegrity: "LINK_INTEGRITY",
}

// rxError is Roux's error shape, {"error": {"code", "message"}}, for an
// error of the core, with Roux's codes.
func rxError(code, message, hint string) string {
	c, ok := rxCodes[wiki.Code(code)]
	if !ok {
		c = "PROVIDER_ERROR"
	}
	if hint != "" {
		message = strings.TrimSuffix(message, ".") + ". " + hint
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": c, "message": message}})
	return string(b)
}

// rxID is a node id: the file's path in lower case.
func rxID(file string) string { return strings.ToLower(file) }

// rxLink is a link with the title of its node.
type rxLink struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// rxNode is Roux's NodeResponse; Content is left out when not asked for.
type rxNode struct {
	ID      string   `json:"id"`
	Title   string   `json:"title"`
	Content *string  `json:"content,omitempty"`
	Tags    []string `json:"tags"`
	Links   []rxLink `json:"links"`
}

// rxNodeWithContext is Roux's NodeWithContextResponse, get_node's answer
// at depth 1: the node, its neighbours with their content cut short and
// how many there are, every field there even when a list is empty.
type rxNodeWithContext struct {
	rxNode
	IncomingNeighbors []rxNode `json:"incomingNeighbors"`
	OutgoingNeighbors []rxNode `json:"outgoingNeighbors"`
	IncomingCount     int      `json:"incomingCount"`
	OutgoingCount     int      `json:"outgoingCount"`
}

// rxRead returns a node, its content cut to max characters (none when max
// is 0), or nil when there is no such node.
func rxRead(ctx context.Context, s *tool.Env, snap wiki.Snapshot, id string, max int) (*rxNode, error) {
	res, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: id, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
	if wiki.CodeOf(err) == wiki.CodeNotFound || wiki.CodeOf(err) == wiki.CodeInvalidPath {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	file := res.File
	if file == "" {
		file = tool.FileOf(ctx, snap, res.Path)
	}
	n := &rxNode{ID: rxID(file), Title: res.Title, Tags: res.Tags, Links: []rxLink{}}
	if n.Tags == nil {
		n.Tags = []string{}
	}
	if max > 0 {
		body := strings.TrimLeft(res.Content[res.BodyStart:], "\n")
		c, _ := tool.Clip(body, max)
		n.Content = &c
	}
	links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: res.Path, Direction: wiki.DirOut, Limit: 200})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, l := range links.Outgoing {
		if l.Path == "" || seen[l.Path] {
			continue
		}
		seen[l.Path] = true
		if f := tool.FileOf(ctx, snap, l.Path); f != "" {
			n.Links = append(n.Links, rxLink{ID: rxID(f), Title: l.Title})
		}
	}
	return n, nil
}

// rxJSON renders an answer.
func rxJSON(v any) (any, string, error) {
	text, err := tool.PlainJSON(v)
	return nil, text, err
}

// rxRun adapts a Roux tool: its answer is JSON as text.
func rxRun[A any](in *tool.Schema, f func(ctx context.Context, s *tool.Env, a *A) (any, error)) tool.RunFunc {
	return tool.Bind(in, func(ctx context.Context, s *tool.Env, a *A) (any, string, error) {
		v, err := f(ctx, s, a)
		if err != nil {
			return nil, "", err
		}
		return rxJSON(v)
	})
}

func rxIDProp(desc string) tool.Prop { return tool.Opt("id", tool.Str(desc)) }

func rxBounded(desc string, min, max, def float64) *tool.Schema {
	return (&tool.Schema{Type: "integer", Description: desc, Min: &min, Max: &max}).Def(def)
}

// rxLimit is a limit within Roux's bounds, def when absent.
func rxLimit(arg string, v *int, def, max int) (int, error) {
	switch {
	case v == nil:
		return def, nil
	case *v < 1 || *v > max:
		return 0, tool.ArgError(arg, "is %d; give 1 to %d", *v, max)
	}
	return *v, nil
}

// --- get_node

type rxGetArgs struct {
	ID    string `json:"id"`
	Depth *int   `json:"depth"`
}

func rxGetNode() *tool.Tool {
	min, max := 0.0, 1.0
	in := tool.SeedObject([]string{"id"},
		rxIDProp("Node ID (file path for DocStore). ID is normalized to lowercase."),
		tool.Opt("depth", (&tool.Schema{Type: "integer", Description: "0 = node only, 1 = include neighbors", Min: &min, Max: &max}).Def(0)),
	)
	return &tool.Tool{
		Name: "get_node", Group: tool.GroupNotes,
		Description: "Retrieve single node with optional neighbor context.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxGetArgs) (any, error) {
			depth := 0
			if a.Depth != nil {
				depth = *a.Depth
			}
			if depth < 0 || depth > 1 {
				return nil, tool.ArgError("depth", "is %d; give 0 or 1", depth)
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			node, err := rxRead(ctx, s, snap, a.ID, rxPrimaryChars)
			if err != nil || node == nil || depth == 0 {
				return node, err
			}
			links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.ID, Direction: wiki.DirBoth, Limit: 200})
			if err != nil {
				return nil, err
			}
			n := &rxNodeWithContext{rxNode: *node, IncomingNeighbors: []rxNode{}, OutgoingNeighbors: []rxNode{}}
			for _, in := range links.Incoming {
				if len(n.IncomingNeighbors) == rxMaxNeighbors {
					break
				}
				if nb, err := rxRead(ctx, s, snap, in.Path, rxNeighborChars); err == nil && nb != nil {
					n.IncomingNeighbors = append(n.IncomingNeighbors, *nb)
				}
			}
			outgoing := 0
			seen := map[string]bool{}
			for _, l := range links.Outgoing {
				if l.Path == "" || seen[l.Path] || tool.FileOf(ctx, snap, l.Path) == "" {
					continue
				}
				seen[l.Path] = true
				outgoing++
				if len(n.OutgoingNeighbors) < rxMaxNeighbors {
					if nb, err := rxRead(ctx, s, snap, l.Path, rxNeighborChars); err == nil && nb != nil {
						n.OutgoingNeighbors = append(n.OutgoingNeighbors, *nb)
					}
				}
			}
			n.IncomingCount, n.OutgoingCount = links.IncomingTotal, outgoing
			return n, nil
		}),
	}
}

// --- get_neighbors

type rxNeighborsArgs struct {
	ID             string `json:"id"`
	Direction      string `json:"direction"`
	Limit          *int   `json:"limit"`
	IncludeContent bool   `json:"include_content"`
}

const rxIncludeContent = "Include node content in results. Default false returns metadata only (id, title, tags, properties, links). Set true to include truncated content."

func rxNeighbors() *tool.Tool {
	in := tool.SeedObject([]string{"id"},
		rxIDProp("Source node ID. ID is normalized to lowercase."),
		tool.Opt("direction", tool.Enum("in = nodes linking here, out = nodes linked to, both = all", "in", "out", "both").Def("both")),
		tool.Opt("limit", rxBounded("Maximum neighbors to return", 1, 50, 20)),
		tool.Opt("include_content", tool.Boolean(rxIncludeContent).Def(false)),
	)
	return &tool.Tool{
		Name: "get_neighbors", Group: tool.GroupLinks,
		Description: "Get nodes linked to/from a node.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxNeighborsArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 20, 50)
			if err != nil {
				return nil, err
			}
			dir := wiki.Direction(a.Direction)
			if dir == "" {
				dir = wiki.DirBoth
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			out := []rxNode{}
			links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.ID, Direction: dir, Limit: 200})
			if wiki.CodeOf(err) == wiki.CodeNotFound || wiki.CodeOf(err) == wiki.CodeInvalidPath {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			chars := 0
			if a.IncludeContent {
				chars = rxListChars
			}
			seen := map[string]bool{}
			add := func(p string) {
				if len(out) == limit || seen[p] {
					return
				}
				seen[p] = true
				if n, err := rxRead(ctx, s, snap, p, chars); err == nil && n != nil {
					out = append(out, *n)
				}
			}
			for _, in := range links.Incoming {
				add(in.Path)
			}
			for _, l := range links.Outgoing {
				if l.Path != "" && tool.FileOf(ctx, snap, l.Path) != "" {
					add(l.Path)
				}
			}
			return out, nil
		}),
	}
}

// --- find_path

type rxPathArgs struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

func rxFindPath() *tool.Tool {
	in := tool.SeedObject([]string{"source", "target"},
		tool.Opt("source", tool.Str("Start node ID. ID is normalized to lowercase.")),
		tool.Opt("target", tool.Str("End node ID. ID is normalized to lowercase.")),
	)
	return &tool.Tool{
		Name: "find_path", Group: tool.GroupLinks,
		Description: "Find shortest path between two nodes.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxPathArgs) (any, error) {
			res, err := s.Wiki.FindPath(ctx, wiki.PathRequest{Source: a.Source, Target: a.Target})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			if !res.Found {
				return nil, nil
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			ids := make([]string, len(res.Path))
			for i, n := range res.Path {
				ids[i] = rxID(tool.FileOf(ctx, snap, n.Path))
			}
			return map[string]any{"path": ids, "length": len(ids) - 1}, nil
		}),
	}
}

// --- get_hubs

type rxHubsArgs struct {
	Metric string `json:"metric"`
	Limit  *int   `json:"limit"`
}

func rxHubs() *tool.Tool {
	in := tool.SeedObject(nil,
		tool.Opt("metric", tool.Enum("Centrality metric", "in_degree", "out_degree").Def("in_degree")),
		tool.Opt("limit", rxBounded("Maximum results", 1, 50, 10)),
	)
	return &tool.Tool{
		Name: "get_hubs", Group: tool.GroupLinks,
		Description: "Get most central nodes by graph metric.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxHubsArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 10, 50)
			if err != nil {
				return nil, err
			}
			metric := wiki.HubMetric(a.Metric)
			if metric == "" {
				metric = wiki.HubInDegree
			}
			res, err := s.Wiki.Hubs(ctx, wiki.HubsRequest{Metric: metric, Limit: limit})
			if err != nil {
				return nil, err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			type hub struct {
				ID    string  `json:"id"`
				Title string  `json:"title"`
				Score float64 `json:"score"`
			}
			out := []hub{}
			for _, h := range res.Hubs {
				out = append(out, hub{ID: rxID(tool.FileOf(ctx, snap, h.Path)), Title: h.Title, Score: h.Score})
			}
			return out, nil
		}),
	}
}

// --- search_by_tags

type rxTagsArgs struct {
	Tags  []string `json:"tags"`
	Mode  string   `json:"mode"`
	Limit *int     `json:"limit"`
}

func rxSearchByTags() *tool.Tool {
	one := 1
	in := tool.SeedObject([]string{"tags"},
		tool.Opt("tags", &tool.Schema{Type: "array", Items: &tool.Schema{Type: "string"}, MinItems: &one, Description: "Tags to match"}),
		tool.Opt("mode", tool.Enum("any = OR matching, all = AND matching", "any", "all").Def("any")),
		tool.Opt("limit", rxBounded("Maximum results", 1, 100, 20)),
	)
	return &tool.Tool{
		Name: "search_by_tags", Group: tool.GroupSearch,
		Description: "Filter nodes by tags.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxTagsArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 20, 100)
			if err != nil {
				return nil, err
			}
			if len(a.Tags) == 0 {
				return nil, tool.ArgError("tags", "is empty: give at least one tag")
			}
			p := wiki.SearchParams{Limit: limit, Sort: "title"}
			if a.Mode == "all" {
				p.Tags = a.Tags
			} else {
				terms := make([]string, len(a.Tags))
				for i, t := range a.Tags {
					b, _ := json.Marshal(strings.TrimPrefix(t, "#"))
					terms[i] = "tag:" + string(b)
				}
				p.Query = strings.Join(terms, " OR ")
			}
			res, err := s.Wiki.Search(ctx, p)
			if err != nil {
				return nil, err
			}
			return rxNodes(ctx, s, res.Results, rxListChars)
		}),
	}
}

// rxNodes reads the nodes of search hits.
func rxNodes(ctx context.Context, s *tool.Env, hits []wiki.SearchHit, chars int) ([]rxNode, error) {
	snap, err := tool.HeadSnapshot(ctx, s)
	if err != nil {
		return nil, err
	}
	out := []rxNode{}
	for _, h := range hits {
		if n, err := rxRead(ctx, s, snap, h.Path, chars); err == nil && n != nil {
			out = append(out, *n)
		}
	}
	return out, nil
}

// --- random_node

type rxRandomArgs struct {
	Tags []string `json:"tags"`
}

func rxRandom() *tool.Tool {
	in := tool.SeedObject(nil, tool.Opt("tags", tool.StrList("Optional: limit to nodes with these tags (any match)")))
	return &tool.Tool{
		Name: "random_node", Group: tool.GroupSearch,
		Description: "Get random node for discovery.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxRandomArgs) (any, error) {
			res, err := s.Wiki.Random(ctx, wiki.RandomRequest{Tags: a.Tags})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			return rxRead(ctx, s, snap, res.Path, rxPrimaryChars)
		}),
	}
}

// --- create_node

type rxCreateArgs struct {
	ID      string   `json:"id"`
	Content string   `json:"content"`
	Title   *string  `json:"title"`
	Tags    []string `json:"tags"`
}

func rxCreate() *tool.Tool {
	in := tool.SeedObject([]string{"id", "content"},
		rxIDProp(`Full path for new node (must end in .md). Will be lowercased (spaces and special characters preserved). Example: "notes/My Note.md" creates "notes/my note.md"`),
		tool.Opt("content", tool.Text("Full text content (markdown)")),
		tool.Opt("title", tool.Str("Optional display title. Defaults to filename without .md extension.")),
		tool.Opt("tags", tool.StrList("Classification tags").Def([]string{})),
	)
	return &tool.Tool{
		Name: "create_node", Group: tool.GroupNotes, Mutating: true,
		Description: "Create a new node (writes file for DocStore).",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxCreateArgs) (any, error) {
			if !strings.HasSuffix(strings.ToLower(a.ID), ".md") {
				return nil, tool.ArgError("id", "%q does not end in .md", a.ID)
			}
			id := strings.ToLower(a.ID)
			// The seed's default title is the file name without .md, not
			// the content's first heading; a title in the content's own
			// frontmatter is one given, and stays.
			title := a.Title
			if fm := note.Parse(id, []byte(a.Content)).Frontmatter; title == nil && (fm == nil || fm.Title == "") {
				base := strings.TrimSuffix(path.Base(id), ".md")
				title = &base
			}
			if _, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: id, Content: a.Content, Title: title, Tags: a.Tags,
				Mutation: wiki.Mutation{Caller: s.Caller}}); err != nil {
				return nil, err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			return rxRead(ctx, s, snap, id, rxPrimaryChars)
		}),
	}
}

// --- update_node

type rxUpdateArgs struct {
	ID      string   `json:"id"`
	Title   *string  `json:"title"`
	Content *string  `json:"content"`
	Tags    []string `json:"tags"`
}

func rxUpdate() *tool.Tool {
	in := tool.SeedObject([]string{"id"},
		rxIDProp("Node ID to update. ID is normalized to lowercase."),
		tool.Opt("title", tool.Str("New title (renames file for DocStore)")),
		tool.Opt("content", tool.Text("New content (replaces entirely)")),
		tool.Opt("tags", tool.StrList("New tags (replaces existing)")),
	)
	return &tool.Tool{
		Name: "update_node", Group: tool.GroupNotes, Mutating: true,
		Description: "Update an existing node. A new title renames the file (lower case, in its folder), refused with " +
			"LINK_INTEGRITY while other nodes link to it; everything asked is one git commit.",
		Input: in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxUpdateArgs) (any, error) {
			if a.Title == nil && a.Content == nil && a.Tags == nil {
				return nil, wiki.Errorf(wiki.CodeInvalidParams, "give at least one of title, content or tags")
			}
			cur, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: a.ID, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
			if err != nil {
				return nil, err
			}
			// A rename comes first in the commit (the core moves before it
			// edits); the other changes then apply to the renamed note.
			var steps []wiki.Change
			target := cur.Path
			if a.Title != nil && *a.Title != cur.Title {
				target = strings.ToLower(path.Join(path.Dir(cur.Path), *a.Title))
				if target != strings.ToLower(cur.Path) {
					links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: cur.Path, Direction: wiki.DirIn, Limit: 1})
					if err != nil {
						return nil, err
					}
					if links.IncomingTotal > 0 {
						return nil, wiki.Errorf(wiki.CodeLinkIntegrity, "%d other nodes link to %s: renaming it would break their links", links.IncomingTotal, a.ID)
					}
					steps = append(steps, wiki.Change{Move: &wiki.MoveRequest{Path: cur.Path, NewPath: target, LeaveLinks: true}})
				} else {
					target = cur.Path
				}
			}
			if a.Content != nil {
				steps = append(steps, wiki.Change{Write: &wiki.WriteRequest{Path: target, Content: cur.Content[:cur.BodyStart] + *a.Content, Overwrite: true}})
			}
			if a.Title != nil || a.Tags != nil {
				ch := note.MetaChange{Title: a.Title, Tags: a.Tags}
				if a.Tags != nil && len(a.Tags) == 0 {
					ch.Tags, ch.RemoveTags = nil, cur.Tags
				}
				steps = append(steps, wiki.Change{Metadata: &wiki.MetadataRequest{Path: target, Change: ch}})
			}
			if _, err := s.Wiki.Apply(ctx, wiki.ApplyRequest{Changes: steps, Mutation: wiki.Mutation{ExpectedVersion: cur.Version, Caller: s.Caller}}); err != nil {
				return nil, err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			return rxRead(ctx, s, snap, target, rxPrimaryChars)
		}),
	}
}

// --- delete_node

type rxIDArgs struct {
	ID string `json:"id"`
}

func rxDelete() *tool.Tool {
	in := tool.SeedObject([]string{"id"}, rxIDProp("Node ID to delete. ID is normalized to lowercase."))
	return &tool.Tool{
		Name: "delete_node", Group: tool.GroupNotes, Mutating: true, Destructive: true,
		Description: "Delete a node.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxIDArgs) (any, error) {
			_, err := s.Wiki.Delete(ctx, wiki.DeleteRequest{Path: a.ID, Confirm: true, Mutation: wiki.Mutation{Caller: s.Caller}})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				return map[string]bool{"deleted": false}, nil
			}
			if err != nil {
				return nil, err
			}
			return map[string]bool{"deleted": true}, nil
		}),
	}
}

// --- list_nodes

type rxListArgs struct {
	Tag    string `json:"tag"`
	Path   string `json:"path"`
	Limit  *int   `json:"limit"`
	Offset *int   `json:"offset"`
}

func rxList() *tool.Tool {
	zero := 0.0
	in := tool.SeedObject(nil,
		tool.Opt("tag", tool.Str(`Filter by tag from the "tags" frontmatter array (case-insensitive). Does NOT search other frontmatter fields like "type" or "category".`)),
		tool.Opt("path", tool.Str("Filter by path prefix (startsWith, case-insensitive)")),
		tool.Opt("limit", rxBounded("Maximum results to return", 1, 1000, 100)),
		tool.Opt("offset", (&tool.Schema{Type: "integer", Description: "Skip this many results (for pagination)", Min: &zero}).Def(0)),
	)
	return &tool.Tool{
		Name: "list_nodes", Group: tool.GroupSearch,
		Description: "List nodes with optional filters and pagination.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxListArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 100, 1000)
			if err != nil {
				return nil, err
			}
			offset := 0
			if a.Offset != nil {
				if offset = *a.Offset; offset < 0 {
					return nil, tool.ArgError("offset", "is %d; give 0 or more", offset)
				}
			}
			// The notes under the prefix's folder, as given, else in lower
			// case, else all: the prefix is matched without case.
			prefix := strings.ToLower(a.Path)
			folder := ""
			if i := strings.LastIndexByte(prefix, '/'); i > 0 {
				folder = a.Path[:i]
				for _, f := range []string{a.Path[:i], prefix[:i], ""} {
					if _, err := s.Wiki.List(ctx, wiki.ListRequest{Path: f, Limit: 1}); err == nil {
						folder = f
						break
					}
				}
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			type summary struct {
				ID    string `json:"id"`
				Title string `json:"title"`
			}
			nodes, total := []summary{}, 0
			cursor := ""
			for {
				res, err := s.Wiki.List(ctx, wiki.ListRequest{Path: folder, Recursive: true, Tag: a.Tag, Sort: "alpha", Limit: wiki.MaxListLimit, Cursor: cursor})
				if wiki.CodeOf(err) == wiki.CodeNotFound {
					break
				}
				if err != nil {
					return nil, err
				}
				for _, n := range res.Notes {
					id := rxID(tool.FileOf(ctx, snap, n.Path))
					if !strings.HasPrefix(id, prefix) {
						continue
					}
					if total >= offset && len(nodes) < limit {
						nodes = append(nodes, summary{ID: id, Title: n.Title})
					}
					total++
				}
				if cursor = res.NextCursor; cursor == "" {
					break
				}
			}
			return map[string]any{"nodes": nodes, "total": total}, nil
		}),
	}
}

// --- resolve_nodes

type rxResolveArgs struct {
	Names     []string `json:"names"`
	Strategy  string   `json:"strategy"`
	Threshold *float64 `json:"threshold"`
	Tag       string   `json:"tag"`
	Path      string   `json:"path"`
}

func rxResolve() *tool.Tool {
	zero, one := 0.0, 1.0
	in := tool.SeedObject([]string{"names"},
		tool.Opt("names", tool.StrList("Names to resolve to existing nodes")),
		tool.Opt("strategy", tool.Enum(`How to match. "exact": case-insensitive title equality. "fuzzy": string similarity (Dice coefficient) for typos. "semantic": embedding cosine similarity for synonyms (NOT typos).`, "exact", "fuzzy", "semantic").Def("fuzzy")),
		tool.Opt("threshold", (&tool.Schema{Type: "number", Description: "Minimum similarity score (0-1). Ignored for exact strategy.", Min: &zero, Max: &one}).Def(0.7)),
		tool.Opt("tag", tool.Str(`Filter candidates by tag from "tags" frontmatter array (case-insensitive)`)),
		tool.Opt("path", tool.Str("Filter candidates by path prefix (case-insensitive)")),
	)
	return &tool.Tool{
		Name: "resolve_nodes", Group: tool.GroupSearch,
		Description: "Batch resolve names to existing node IDs.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxResolveArgs) (any, error) {
			strategy := a.Strategy
			if strategy == "" {
				strategy = "fuzzy"
			}
			threshold := 0.7
			if a.Threshold != nil {
				threshold = *a.Threshold
			}
			res, err := s.Wiki.Resolve(ctx, wiki.ResolveRequest{Names: a.Names, Strategy: strategy, Threshold: threshold,
				Folder: strings.Trim(a.Path, "/"), Tag: a.Tag})
			if err != nil {
				return nil, err
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			type resolved struct {
				Query string  `json:"query"`
				Match *string `json:"match"`
				Score float64 `json:"score"`
			}
			out := []resolved{}
			for _, r := range res.Results {
				x := resolved{Query: r.Name}
				if len(r.Matches) > 0 {
					id := rxID(tool.FileOf(ctx, snap, r.Matches[0].Path))
					x.Match, x.Score = &id, r.Matches[0].Score
				}
				out = append(out, x)
			}
			return out, nil
		}),
	}
}

// --- nodes_exist

type rxExistArgs struct {
	IDs []string `json:"ids"`
}

func rxExist() *tool.Tool {
	in := tool.SeedObject([]string{"ids"}, tool.Opt("ids", tool.StrList("Node IDs to check existence. IDs are normalized to lowercase.")))
	return &tool.Tool{
		Name: "nodes_exist", Group: tool.GroupSearch,
		Description: "Batch check if node IDs exist.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxExistArgs) (any, error) {
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			out := map[string]bool{}
			for _, id := range a.IDs {
				n, err := rxRead(ctx, s, snap, id, 0)
				if err != nil {
					return nil, err
				}
				out[strings.ToLower(id)] = n != nil
			}
			return out, nil
		}),
	}
}

// --- Roux's search

type rxSearchArgs struct {
	Query          string `json:"query"`
	Limit          *int   `json:"limit"`
	IncludeContent bool   `json:"include_content"`
}

// rxSearchResult is Roux's SearchResultResponse: a node and its
// similarity in 0–1.
type rxSearchResult struct {
	rxNode
	Score float64 `json:"score"`
}

func rxSearch() *tool.Tool {
	in := tool.SeedObject([]string{"query"},
		tool.Opt("query", tool.Str("Natural language search query")),
		tool.Opt("limit", rxBounded("Maximum results to return", 1, 50, 10)),
		tool.Opt("include_content", tool.Boolean("Include node content in results. Default false returns metadata only (id, title, tags, properties, links). Set true to include truncated content.").Def(false)),
	)
	return &tool.Tool{
		Name: "search", Group: tool.GroupSearch, NeedsSemantic: true,
		Description: "Semantic similarity search.",
		Input:       in,
		Run: rxRun(in, func(ctx context.Context, s *tool.Env, a *rxSearchArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 10, 50)
			if err != nil {
				return nil, err
			}
			res, err := s.Wiki.Search(ctx, wiki.SearchParams{Query: a.Query, Mode: wiki.SearchSemantic, Limit: limit})
			if err != nil {
				return nil, err
			}
			chars := 0
			if a.IncludeContent {
				chars = rxListChars
			}
			snap, err := tool.HeadSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			out := []rxSearchResult{}
			for _, h := range res.Results {
				n, err := rxRead(ctx, s, snap, h.Path, chars)
				if err != nil {
					return nil, err
				}
				if n != nil {
					out = append(out, rxSearchResult{rxNode: *n, Score: math.Max(0, math.Min(1, h.Score))})
				}
			}
			return out, nil
		}),
	}
}
