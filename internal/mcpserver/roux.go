package mcpserver

import (
	"context"
	"encoding/json"
	"math"
	"path"
	"strings"

	"github.com/wikid/wikid/internal/note"
	"github.com/wikid/wikid/internal/wiki"
)

// The roux profile serves Roux's graph tools: nodes are notes, a node's id
// is its file path in lower case (with .md), and answers are JSON as
// text. What Roux calls "not an error" (a missing node, no path, no
// neighbours) answers null, [] or {"deleted": false}; errors are
// {"error": {"code", "message"}} with Roux's codes. Its search tool is
// listed only when semantic search is configured, as Roux lists it only
// with an embedding provider.

const rouxInstructions = `Roux graph tools over a git repository of markdown notes (served by wikid). A node's id is ` +
	`its file path in lower case, such as notes/graphcore.md. Every change is one git commit.`

var rouxWords = wiki.Words{
	"read": "get_node", "write": "create_node", "edit": "update_node", "metadata": "update_node",
	"delete": "delete_node", "move": "update_node with a new title", "apply": "update_node",
	"list": "list_nodes", "search": "search_by_tags", "resolve": "resolve_nodes", "grep": "list_nodes",
	"links": "get_neighbors", "broken_links": "get_neighbors", "tags": "search_by_tags", "sync": "git pull and git push",
	"history": "git log", "diff": "git diff", "blame": "git blame", "activity": "git log",
	"restore": "git restore", "revert": "git revert", "status": "git status", "daily": "create_node",
	"expected_version": "a fresh get_node", "overwrite": "update_node", "regex_off": "a plain query",
	"read_only": "a read-only server", "version": "a commit",
}

func rouxTools() []*tool {
	return []*tool{rxGetNode(), rxNeighbors(), rxFindPath(), rxHubs(), rxSearchByTags(), rxRandom(), rxCreate(), rxUpdate(),
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
	// With depth 1, NodeWithContextResponse's fields.
	IncomingNeighbors []rxNode `json:"incomingNeighbors,omitempty"`
	OutgoingNeighbors []rxNode `json:"outgoingNeighbors,omitempty"`
	IncomingCount     *int     `json:"incomingCount,omitempty"`
	OutgoingCount     *int     `json:"outgoingCount,omitempty"`
}

// rxRead returns a node, its content cut to max characters (none when max
// is 0), or nil when there is no such node.
func rxRead(ctx context.Context, s *Env, snap wiki.Snapshot, id string, max int) (*rxNode, error) {
	res, err := s.Wiki.Read(ctx, wiki.ReadRequest{Path: id, MaxChars: int(s.Wiki.Options().MaxNoteSize)})
	if wiki.CodeOf(err) == wiki.CodeNotFound || wiki.CodeOf(err) == wiki.CodeInvalidPath {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	file := res.File
	if file == "" {
		file = fileOf(ctx, snap, res.Path)
	}
	n := &rxNode{ID: rxID(file), Title: res.Title, Tags: res.Tags, Links: []rxLink{}}
	if n.Tags == nil {
		n.Tags = []string{}
	}
	if max > 0 {
		body := strings.TrimLeft(res.Content[note.Parse(res.Path, []byte(res.Content)).BodyStart:], "\n")
		c, _ := clip(body, max)
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
		if f := fileOf(ctx, snap, l.Path); f != "" {
			n.Links = append(n.Links, rxLink{ID: rxID(f), Title: l.Title})
		}
	}
	return n, nil
}

// rxJSON renders an answer.
func rxJSON(v any) (any, string, error) {
	text, err := plainJSON(v)
	return nil, text, err
}

// rxRun adapts a Roux tool: its answer is JSON as text.
func rxRun[A any](in *schema, f func(ctx context.Context, s *Env, a *A) (any, error)) runFunc {
	return bind(in, func(ctx context.Context, s *Env, a *A) (any, string, error) {
		v, err := f(ctx, s, a)
		if err != nil {
			return nil, "", err
		}
		return rxJSON(v)
	})
}

func rxIDProp(desc string) prop { return opt("id", str(desc)) }

func rxBounded(desc string, min, max, def float64) *schema {
	return (&schema{Type: "integer", Description: desc, Min: &min, Max: &max}).def(def)
}

// rxLimit is a limit within Roux's bounds, def when absent.
func rxLimit(arg string, v *int, def, max int) (int, error) {
	switch {
	case v == nil:
		return def, nil
	case *v < 1 || *v > max:
		return 0, argError(arg, "is %d; give 1 to %d", *v, max)
	}
	return *v, nil
}

// --- get_node

type rxGetArgs struct {
	ID    string `json:"id"`
	Depth *int   `json:"depth"`
}

func rxGetNode() *tool {
	min, max := 0.0, 1.0
	in := seedObject([]string{"id"},
		rxIDProp("Node ID (file path for DocStore). ID is normalized to lowercase."),
		opt("depth", (&schema{Type: "integer", Description: "0 = node only, 1 = include neighbors", Min: &min, Max: &max}).def(0)),
	)
	return &tool{
		name: "get_node", group: GroupNotes,
		description: "Retrieve single node with optional neighbor context.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxGetArgs) (any, error) {
			depth := 0
			if a.Depth != nil {
				depth = *a.Depth
			}
			if depth < 0 || depth > 1 {
				return nil, argError("depth", "is %d; give 0 or 1", depth)
			}
			snap, err := headSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			n, err := rxRead(ctx, s, snap, a.ID, rxPrimaryChars)
			if err != nil || n == nil || depth == 0 {
				return n, err
			}
			links, err := s.Wiki.Links(ctx, wiki.LinksRequest{Path: a.ID, Direction: wiki.DirBoth, Limit: 200})
			if err != nil {
				return nil, err
			}
			n.IncomingNeighbors, n.OutgoingNeighbors = []rxNode{}, []rxNode{}
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
				if l.Path == "" || seen[l.Path] || fileOf(ctx, snap, l.Path) == "" {
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
			incoming := links.IncomingTotal
			n.IncomingCount, n.OutgoingCount = &incoming, &outgoing
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

func rxNeighbors() *tool {
	in := seedObject([]string{"id"},
		rxIDProp("Source node ID. ID is normalized to lowercase."),
		opt("direction", enum("in = nodes linking here, out = nodes linked to, both = all", "in", "out", "both").def("both")),
		opt("limit", rxBounded("Maximum neighbors to return", 1, 50, 20)),
		opt("include_content", boolean(rxIncludeContent).def(false)),
	)
	return &tool{
		name: "get_neighbors", group: GroupLinks,
		description: "Get nodes linked to/from a node.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxNeighborsArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 20, 50)
			if err != nil {
				return nil, err
			}
			dir := wiki.Direction(a.Direction)
			if dir == "" {
				dir = wiki.DirBoth
			}
			snap, err := headSnapshot(ctx, s)
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
				if l.Path != "" && fileOf(ctx, snap, l.Path) != "" {
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

func rxFindPath() *tool {
	in := seedObject([]string{"source", "target"},
		opt("source", str("Start node ID. ID is normalized to lowercase.")),
		opt("target", str("End node ID. ID is normalized to lowercase.")),
	)
	return &tool{
		name: "find_path", group: GroupLinks,
		description: "Find shortest path between two nodes.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxPathArgs) (any, error) {
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
			snap, err := headSnapshot(ctx, s)
			if err != nil {
				return nil, err
			}
			ids := make([]string, len(res.Path))
			for i, n := range res.Path {
				ids[i] = rxID(fileOf(ctx, snap, n.Path))
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

func rxHubs() *tool {
	in := seedObject(nil,
		opt("metric", enum("Centrality metric", "in_degree", "out_degree").def("in_degree")),
		opt("limit", rxBounded("Maximum results", 1, 50, 10)),
	)
	return &tool{
		name: "get_hubs", group: GroupLinks,
		description: "Get most central nodes by graph metric.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxHubsArgs) (any, error) {
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
			snap, err := headSnapshot(ctx, s)
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
				out = append(out, hub{ID: rxID(fileOf(ctx, snap, h.Path)), Title: h.Title, Score: h.Score})
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

func rxSearchByTags() *tool {
	one := 1
	in := seedObject([]string{"tags"},
		opt("tags", &schema{Type: "array", Items: &schema{Type: "string"}, MinItems: &one, Description: "Tags to match"}),
		opt("mode", enum("any = OR matching, all = AND matching", "any", "all").def("any")),
		opt("limit", rxBounded("Maximum results", 1, 100, 20)),
	)
	return &tool{
		name: "search_by_tags", group: GroupSearch,
		description: "Filter nodes by tags.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxTagsArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 20, 100)
			if err != nil {
				return nil, err
			}
			if len(a.Tags) == 0 {
				return nil, argError("tags", "is empty: give at least one tag")
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
func rxNodes(ctx context.Context, s *Env, hits []wiki.SearchHit, chars int) ([]rxNode, error) {
	snap, err := headSnapshot(ctx, s)
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

func rxRandom() *tool {
	in := seedObject(nil, opt("tags", strList("Optional: limit to nodes with these tags (any match)")))
	return &tool{
		name: "random_node", group: GroupSearch,
		description: "Get random node for discovery.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxRandomArgs) (any, error) {
			res, err := s.Wiki.Random(ctx, wiki.RandomRequest{Tags: a.Tags})
			if wiki.CodeOf(err) == wiki.CodeNotFound {
				return nil, nil
			}
			if err != nil {
				return nil, err
			}
			snap, err := headSnapshot(ctx, s)
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

func rxCreate() *tool {
	in := seedObject([]string{"id", "content"},
		rxIDProp(`Full path for new node (must end in .md). Will be lowercased (spaces and special characters preserved). Example: "notes/My Note.md" creates "notes/my note.md"`),
		opt("content", text("Full text content (markdown)")),
		opt("title", str("Optional display title. Defaults to filename without .md extension.")),
		opt("tags", strList("Classification tags").def([]string{})),
	)
	return &tool{
		name: "create_node", group: GroupNotes, mutating: true,
		description: "Create a new node (writes file for DocStore).",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxCreateArgs) (any, error) {
			if !strings.HasSuffix(strings.ToLower(a.ID), ".md") {
				return nil, argError("id", "%q does not end in .md", a.ID)
			}
			id := strings.ToLower(a.ID)
			if _, err := s.Wiki.Write(ctx, wiki.WriteRequest{Path: id, Content: a.Content, Title: a.Title, Tags: a.Tags,
				Mutation: wiki.Mutation{Caller: s.Caller}}); err != nil {
				return nil, err
			}
			snap, err := headSnapshot(ctx, s)
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

func rxUpdate() *tool {
	in := seedObject([]string{"id"},
		rxIDProp("Node ID to update. ID is normalized to lowercase."),
		opt("title", str("New title (renames file for DocStore)")),
		opt("content", text("New content (replaces entirely)")),
		opt("tags", strList("New tags (replaces existing)")),
	)
	return &tool{
		name: "update_node", group: GroupNotes, mutating: true,
		description: "Update an existing node. A new title renames the file (lower case, in its folder), refused with " +
			"LINK_INTEGRITY while other nodes link to it; everything asked is one git commit.",
		input: in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxUpdateArgs) (any, error) {
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
				n := note.Parse(cur.Path, []byte(cur.Content))
				steps = append(steps, wiki.Change{Write: &wiki.WriteRequest{Path: target, Content: cur.Content[:n.BodyStart] + *a.Content, Overwrite: true}})
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
			snap, err := headSnapshot(ctx, s)
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

func rxDelete() *tool {
	in := seedObject([]string{"id"}, rxIDProp("Node ID to delete. ID is normalized to lowercase."))
	return &tool{
		name: "delete_node", group: GroupNotes, mutating: true, destructive: true,
		description: "Delete a node.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxIDArgs) (any, error) {
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

func rxList() *tool {
	zero := 0.0
	in := seedObject(nil,
		opt("tag", str(`Filter by tag from the "tags" frontmatter array (case-insensitive). Does NOT search other frontmatter fields like "type" or "category".`)),
		opt("path", str("Filter by path prefix (startsWith, case-insensitive)")),
		opt("limit", rxBounded("Maximum results to return", 1, 1000, 100)),
		opt("offset", (&schema{Type: "integer", Description: "Skip this many results (for pagination)", Min: &zero}).def(0)),
	)
	return &tool{
		name: "list_nodes", group: GroupSearch,
		description: "List nodes with optional filters and pagination.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxListArgs) (any, error) {
			limit, err := rxLimit("limit", a.Limit, 100, 1000)
			if err != nil {
				return nil, err
			}
			offset := 0
			if a.Offset != nil {
				if offset = *a.Offset; offset < 0 {
					return nil, argError("offset", "is %d; give 0 or more", offset)
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
			snap, err := headSnapshot(ctx, s)
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
					id := rxID(fileOf(ctx, snap, n.Path))
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

func rxResolve() *tool {
	zero, one := 0.0, 1.0
	in := seedObject([]string{"names"},
		opt("names", strList("Names to resolve to existing nodes")),
		opt("strategy", enum(`How to match. "exact": case-insensitive title equality. "fuzzy": string similarity (Dice coefficient) for typos. "semantic": embedding cosine similarity for synonyms (NOT typos).`, "exact", "fuzzy", "semantic").def("fuzzy")),
		opt("threshold", (&schema{Type: "number", Description: "Minimum similarity score (0-1). Ignored for exact strategy.", Min: &zero, Max: &one}).def(0.7)),
		opt("tag", str(`Filter candidates by tag from "tags" frontmatter array (case-insensitive)`)),
		opt("path", str("Filter candidates by path prefix (case-insensitive)")),
	)
	return &tool{
		name: "resolve_nodes", group: GroupSearch,
		description: "Batch resolve names to existing node IDs.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxResolveArgs) (any, error) {
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
			snap, err := headSnapshot(ctx, s)
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
					id := rxID(fileOf(ctx, snap, r.Matches[0].Path))
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

func rxExist() *tool {
	in := seedObject([]string{"ids"}, opt("ids", strList("Node IDs to check existence. IDs are normalized to lowercase.")))
	return &tool{
		name: "nodes_exist", group: GroupSearch,
		description: "Batch check if node IDs exist.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxExistArgs) (any, error) {
			snap, err := headSnapshot(ctx, s)
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

func rxSearch() *tool {
	in := seedObject([]string{"query"},
		opt("query", str("Natural language search query")),
		opt("limit", rxBounded("Maximum results to return", 1, 50, 10)),
		opt("include_content", boolean("Include node content in results. Default false returns metadata only (id, title, tags, properties, links). Set true to include truncated content.").def(false)),
	)
	return &tool{
		name: "search", group: GroupSearch, needsSemantic: true,
		description: "Semantic similarity search.",
		input:       in,
		run: rxRun(in, func(ctx context.Context, s *Env, a *rxSearchArgs) (any, error) {
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
			snap, err := headSnapshot(ctx, s)
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
