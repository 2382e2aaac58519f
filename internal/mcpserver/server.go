package mcpserver

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/wikid/wikid/internal/gitsync"
	"github.com/wikid/wikid/internal/tool"
	"github.com/wikid/wikid/internal/wiki"
)

// Options configure a Server.
type Options struct {
	// ReadOnly hides the mutating tools; calling one anyway fails with
	// READ_ONLY.
	ReadOnly bool
	// Propose makes every change of the server's clients a proposal
	// (wiki.Caller.Propose).
	Propose bool
	// Groups selects the tool groups to serve; empty means all of them.
	Groups []string
	// Author, if set, is the commit author of every change; the zero value
	// attributes each change to the client that made it.
	Author wiki.Identity
	// Logger receives the server's logs; default slog.Default().
	Logger *slog.Logger
	// Version is reported to clients as the server's version.
	Version string
	// Profiles is the table of the profiles the server may serve, by
	// name: one by Profile, and over HTTP each at HTTPPath/NAME.
	Profiles Profiles
	// Profile names the tool set to serve, one of Profiles; empty means
	// wikid's own (ProfileWikid).
	Profile string
	// Sync runs the sync rounds sync_wiki asks for; without one,
	// sync_wiki fails with UNAVAILABLE.
	Sync *gitsync.Syncer
	// Orphans, if set, is shared by the servers of one process whose
	// stream sessions serve the same clients (a daemon's): a request of
	// one waits for the changes its client left running on another (see
	// Orphans). Nil gives the server its own.
	Orphans *Orphans
}

// Validate reports an unknown profile or tool group, or an unusable
// author.
func (o Options) Validate() error {
	if _, ok := o.Profiles[o.profile()]; !ok {
		return fmt.Errorf("unknown profile %q: want one of %s", o.profile(), strings.Join(o.Profiles.Names(), ", "))
	}
	for _, g := range o.Groups {
		if !slices.Contains(tool.Groups, g) {
			return fmt.Errorf("unknown tool group %q: want some of %s", g, strings.Join(tool.Groups, ", "))
		}
	}
	if o.Author != (wiki.Identity{}) {
		if strings.TrimSpace(o.Author.Name) == "" || strings.ContainsAny(o.Author.Name+o.Author.Email, "<>\n") {
			return fmt.Errorf("invalid author %q: want a name and an email without <, > or newlines", o.Author.String())
		}
	}
	return nil
}

func (o Options) profile() string {
	if o.Profile == "" {
		return ProfileWikid
	}
	return o.Profile
}

// Server serves a wiki over MCP: the tools of the selected groups and the
// wiki:// resources. It is safe for concurrent use; one Server can serve
// stdio and HTTP at once.
type Server struct {
	w     *wiki.Wiki
	opts  Options
	log   *slog.Logger
	mcp   *server.MCPServer
	tools map[string]*tool.Tool
	// prof is the profile served: its tools, and its prompts, resources,
	// completions and subscriptions where it has them.
	prof tool.Profile
	subs subscriptions
	// orphans are the changes still running of sessions whose input
	// ended (Options.Orphans).
	orphans *Orphans
}

// New returns a server for w. Options are used as given: call
// Options.Validate first; unknown groups are ignored, and a profile
// missing from the table serves nothing.
func New(w *wiki.Wiki, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	prof := opts.Profiles[opts.profile()]
	if prof.Tools == nil {
		prof.Tools = func() []*tool.Tool { return nil }
	}
	s := &Server{w: w, opts: opts, log: opts.Logger.WithGroup("mcp"), tools: map[string]*tool.Tool{}, prof: prof,
		orphans: opts.Orphans}
	if s.orphans == nil {
		s.orphans = &Orphans{}
	}
	hooks := &server.Hooks{}
	hooks.AddAfterListTools(s.hideMutating)
	serverOpts := []server.ServerOption{
		server.WithToolCapabilities(false),
		// Subscriptions, and list_changed when notes come and go, where
		// the profile says what a subscription watches.
		server.WithResourceCapabilities(prof.Watch != nil, prof.Watch != nil),
		server.WithInstructions(prof.Instructions),
		server.WithHooks(hooks),
		server.WithRecovery(),
	}
	if prof.Watch != nil {
		s.subscribeHooks(hooks)
	}
	if len(prof.Prompts) > 0 {
		serverOpts = append(serverOpts, server.WithPromptCapabilities(false))
	}
	if prof.Complete != nil {
		serverOpts = append(serverOpts,
			server.WithCompletions(),
			server.WithPromptCompletionProvider(completer{s}),
			server.WithResourceCompletionProvider(completer{s}),
		)
	}
	s.mcp = server.NewMCPServer("wikid", opts.Version, serverOpts...)
	_, semantic := w.SemanticState()
	for _, t := range prof.Tools() {
		if !s.groupEnabled(t.Group) || t.NeedsSemantic && !semantic {
			continue
		}
		if semantic && t.WithSemantic != nil {
			t = t.WithSemantic()
		}
		s.tools[t.Name] = t
		s.mcp.AddTool(definition(t, opts.ReadOnly), s.handler(t))
	}
	s.addResources()
	s.addPrompts()
	return s
}

func (s *Server) groupEnabled(g string) bool {
	return len(s.opts.Groups) == 0 || slices.Contains(s.opts.Groups, g)
}

// hideMutating removes the mutating tools from tools/list on a read-only
// server. They stay registered, so a call still reaches the handler and
// gets READ_ONLY instead of "unknown tool".
func (s *Server) hideMutating(_ context.Context, _ any, _ *mcp.ListToolsRequest, res *mcp.ListToolsResult) {
	if !s.opts.ReadOnly || res == nil {
		return
	}
	res.Tools = slices.DeleteFunc(res.Tools, func(t mcp.Tool) bool {
		tt, ok := s.tools[t.Name]
		return ok && tt.Mutating && tt.Reads == nil
	})
}

// ServeStdio serves one client over in and out (standard input and output,
// or a connection to the daemon; a Server serves any number at once)
// until in ends or ctx is done; it waits for the calls in flight, and a
// change in flight runs to its end, while a subscriptions/listen stream
// ends with in. Only protocol messages go to out. A
// line of in that is not JSON is answered with a parse error (-32700) that
// carries the request's id when the line shows one; a line without a
// readable id ends the session. It returns nil when in ends or ctx is done,
// else the error that ended the session: such a line, a failed read of in
// or write to out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	w := &lineWriter{w: out}
	r := newRequestReader(in, w)
	err := s.serveStream(ctx, r, w)
	switch {
	case r.closedBy() != nil:
		return r.closedBy()
	case ctx.Err() != nil:
		return nil
	}
	return err
}

// definition is the tool as tools/list shows it, on a read-only server
// or not.
func definition(t *tool.Tool, readOnly bool) mcp.Tool {
	in, err := json.Marshal(t.Input)
	if err != nil {
		panic(err)
	}
	out := t.SeedOutput
	if t.Output != nil {
		out = publishedOutput(t)
	}
	desc, mutating := t.Description, t.Mutating
	if readOnly && t.Reads != nil {
		desc += " This server is read-only: reads work, and every change fails with READ_ONLY."
		mutating = false
	}
	return mcp.Tool{
		Name:            t.Name,
		Title:           t.Title,
		Description:     desc,
		RawInputSchema:  in,
		RawOutputSchema: out,
		Annotations:     annotations(t.Title, mutating, t.Destructive, t.Idempotent),
	}
}

// annotations are a tool's hints, each left out where it is what the MCP
// specification takes when it is absent (not read-only, destructive, not
// idempotent, open world), or where it means nothing (destructive for a
// tool that changes nothing): a client reads the same, and tools/list is
// shorter.
func annotations(title string, mutating, destructive, idempotent bool) mcp.ToolAnnotation {
	a := mcp.ToolAnnotation{Title: title, OpenWorldHint: tool.Ptr(false)}
	if !mutating {
		a.ReadOnlyHint = tool.Ptr(true)
	} else if !destructive {
		a.DestructiveHint = tool.Ptr(false)
	}
	if idempotent {
		a.IdempotentHint = tool.Ptr(true)
	}
	return a
}

// publishedOutputs holds each tool's output schema as tools/list shows
// it, made once per process: the schemas never change, and sharing their
// definitions takes longer than anything else in a server's start.
var publishedOutputs sync.Map // tool name → json.RawMessage

func publishedOutput(t *tool.Tool) json.RawMessage {
	if out, ok := publishedOutputs.Load(t.Name); ok {
		return out.(json.RawMessage)
	}
	out, err := json.Marshal(t.Output.Published())
	if err != nil {
		panic(err)
	}
	out = tool.ShareDefinitions(out)
	publishedOutputs.Store(t.Name, json.RawMessage(out))
	return out
}

// handler adapts a tool to mcp-go: arguments in, a result with structured
// content and text out, errors as results with isError set.
func (s *Server) handler(t *tool.Tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		res := s.call(ctx, t, req)
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.DebugContext(ctx, "tool call", "tool", t.Name, "error", res.IsError, "took", time.Since(start))
		}
		return res, nil
	}
}

func (s *Server) call(ctx context.Context, t *tool.Tool, req mcp.CallToolRequest) *mcp.CallToolResult {
	// mcp-go keeps the arguments' bytes whenever a request has arguments.
	raw := []byte(req.Params.RawArguments)
	changes := t.Mutating && (t.Reads == nil || !t.Reads(raw))
	if changes && s.opts.ReadOnly {
		return s.plainError(errorToolResultIn(readOnlyError(t.Name, s.w.Unwritable()), s.prof.Words))
	}
	if changes {
		// A change, once started, runs to its end even if the client goes
		// away or the server is asked to stop: the commit is atomic and
		// quick, and stopping halfway would leave the caller unsure.
		ctx = context.WithoutCancel(ctx)
	}
	if req.Params.Meta != nil && req.Params.Meta.ProgressToken != nil {
		ctx = s.withProgress(ctx, req.Params.Meta.ProgressToken)
	}
	env := s.env(ctx, t.Name)
	ctx = s.w.ForCaller(ctx, env.Caller) // a proposing session reads its proposal
	structured, text, err := t.Run(ctx, env, raw)
	if err != nil {
		return s.plainError(s.errorResult(ctx, t.Name, err))
	}
	text = s.tell(ctx, env.Caller, structured, text)
	if t.SeedOutput != nil {
		// A profile's tool with its seed's output schema: the result as
		// structured content, and as text for clients that show text.
		out, err := json.Marshal(structured)
		if err != nil {
			return s.plainError(s.errorResult(ctx, t.Name, err))
		}
		return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(string(out))}, StructuredContent: structured, RawStructuredContent: out}
	}
	if t.Output == nil {
		// A tool that answers in content only: its text, and an image, say.
		content := []mcp.Content{mcp.NewTextContent(s.prof.Words.Say(text))}
		if m, ok := structured.(tool.WithMedia); ok {
			for _, x := range m.Media() {
				if x.Data == nil {
					content = append(content, mcp.NewTextContent(x.Text))
				} else {
					content = append(content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(x.Data), x.MIME))
				}
			}
		}
		return &mcp.CallToolResult{Content: content}
	}
	out, err := tool.EncodeStructured(structured, t.Output, s.prof.Words)
	if err != nil {
		return s.errorResult(ctx, t.Name, err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(s.prof.Words.Say(text))}, StructuredContent: out, RawStructuredContent: out}
}

// env is what a tool, prompt, resource or completion of the profile runs
// with; toolName names the tool ("" for the others).
func (s *Server) env(ctx context.Context, toolName string) *tool.Env {
	return &tool.Env{Wiki: s.w, Caller: s.caller(ctx, toolName), ReadOnly: s.opts.ReadOnly, Sync: s.opts.Sync}
}

// plainError leaves out the structured content of an error on a plain
// profile, whose source system answers in text only, and words the text
// as that system does.
func (s *Server) plainError(res *mcp.CallToolResult) *mcp.CallToolResult {
	if !s.prof.Plain {
		return res
	}
	if e, ok := res.StructuredContent.(errorShape); ok && s.prof.ErrorText != nil {
		str := func(k string) string { v, _ := e.Error[k].(string); return v }
		res.Content = []mcp.Content{mcp.NewTextContent(s.prof.ErrorText(str("code"), str("message"), str("hint")))}
	}
	res.StructuredContent, res.RawStructuredContent = nil, nil
	return res
}

// withProgress makes the wiki's progress reports during a call
// notifications/progress to the client that asked for them with token.
// Over stdio they arrive before the call's result; over HTTP the answer
// becomes an event stream.
func (s *Server) withProgress(ctx context.Context, token mcp.ProgressToken) context.Context {
	var m progressMeter
	var mu sync.Mutex
	return wiki.WithProgress(ctx, func(p wiki.Progress) {
		mu.Lock()
		defer mu.Unlock()
		value, ok := m.next(p.Done, time.Now())
		if !ok {
			return
		}
		params := map[string]any{"progressToken": token, "progress": value, "message": p.Message}
		if p.Total > 0 {
			params["total"] = p.Total
		}
		if err := s.mcp.SendNotificationToClient(ctx, "notifications/progress", params); err != nil {
			s.log.Debug("progress notification", "err", err)
		}
	})
}

// heartbeat is how long after a notification a report that finished no
// piece is sent: a host that keeps a call alive by its progress must not
// time it out while an index builds in large steps. It is under the half
// second at which the wiki reports (see wiki.WithProgress), so that every
// report of a wait goes out: at a second, a report due just before it
// waited for the next, and a scan went 1.3 s without a notification.
const heartbeat = 400 * time.Millisecond

// progressMeter chooses the progress values of a call's notifications,
// which must increase from one to the next: the pieces done when they
// increased, else, a heartbeat after the last, a value between the last
// and the next whole piece, so that it still increases and never passes
// the count of pieces done.
type progressMeter struct {
	sent bool
	last float64
	at   time.Time
}

// next returns the value to send for a report of done pieces at now, and
// false when none is due.
func (m *progressMeter) next(done int, now time.Time) (float64, bool) {
	v := float64(done)
	switch {
	case !m.sent || v > m.last:
	case now.Sub(m.at) >= heartbeat:
		v = m.last + (math.Floor(m.last)+1-m.last)/2
	default:
		return 0, false
	}
	m.sent, m.last, m.at = true, v, now
	return v, true
}

// errorSchema describes the structured content of a failed call.
func errorSchema() *tool.Schema {
	list := func(desc string) *tool.Schema { return &tool.Schema{Type: "array", Description: desc} }
	return tool.Object("Set instead of the other fields when the call failed (isError is true).",
		tool.Req("code", tool.Enum("The error code.", errorCodes...)),
		tool.Req("message", tool.Str("What went wrong.")),
		tool.Req("hint", tool.Str("What to do next.")),
		tool.Opt("argument", tool.Str("The argument at fault, as a path such as edits[1].op.")),
		tool.Opt("current_version", tool.Str("CONFLICT: the note's current version.")),
		tool.Opt("column", tool.Integer("INVALID_QUERY: the column of the query where parsing failed.", 0, 1e9)),
		tool.Opt("line", tool.Integer("The line of the note the error is about.", 0, 1e9)),
		tool.Opt("edit", tool.Integer("edit_note: the index of the edit that failed.", 0, 1e9)),
		tool.Opt("matches", tool.Integer("How many times a find text occurred.", 0, 1e9)),
		tool.Opt("lines", list("Line numbers of the matches.")),
		tool.Opt("headings", list("NOT_FOUND for a section: the headings the note has.")),
		tool.Opt("candidates", list("AMBIGUOUS: what the name or version could mean.")),
		tool.Opt("paths", list("LOCAL_CHANGES: the files with uncommitted changes.")),
		tool.Opt("lock", tool.Str("LOCKED: the git lock file in the way.")),
		tool.Opt("conflicts", list("revert_change CONFLICT: per note, why it cannot be reverted or the overlapping hunks (now, commit, before).")),
	)
}

var errorCodes = []string{
	string(wiki.CodeInvalidParams), string(wiki.CodeInvalidPath), string(wiki.CodeInvalidQuery),
	string(wiki.CodeNotFound), string(wiki.CodeAlreadyExists), string(wiki.CodeConflict),
	string(wiki.CodeLocked), string(wiki.CodeAmbiguous), string(wiki.CodeLinkIntegrity), string(wiki.CodeLocalChanges),
	string(wiki.CodeReadOnly), string(wiki.CodeTooLarge), string(wiki.CodeInternal), string(wiki.CodeUnavailable),
	string(wiki.CodeOtherBranch),
	string(wiki.CodeNoSpace),
}
