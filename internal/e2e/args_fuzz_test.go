package e2e_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wikid/wikid/internal/mcpserver"
	"github.com/wikid/wikid/internal/profiles/table"
	"github.com/wikid/wikid/internal/wiki"
)

// fuzzServer is a read-only server over the fixture wiki, spoken to over
// an in-process stdio stream, shared by the runs of one fuzz process: a
// read-only server decodes a mutating tool's arguments fully before it
// refuses the call.
type fuzzServer struct {
	mu    sync.Mutex
	in    io.Writer
	out   *bufio.Reader
	tools []string
	id    int
}

func (f *fuzzServer) call(tb testing.TB, method string, params any) json.RawMessage {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.id++
	msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": f.id, "method": method, "params": params})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := f.in.Write(append(msg, '\n')); err != nil {
		tb.Fatal(err)
	}
	type answer struct {
		line []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		for {
			line, err := f.out.ReadBytes('\n')
			var head struct {
				ID int `json:"id"`
			}
			if err != nil || (json.Unmarshal(line, &head) == nil && head.ID == f.id) {
				got <- answer{line, err}
				return
			}
		}
	}()
	select {
	case a := <-got:
		if a.err != nil {
			tb.Fatalf("%s %s: the server ended the stream: %v", method, msg, a.err)
		}
		return a.line
	case <-time.After(10 * time.Second):
		tb.Fatalf("%s %s: no answer within 10 s", method, msg)
	}
	return nil
}

func startFuzzServer(f *testing.F) *fuzzServer { return startProfileFuzzServer(f, "") }

// startProfileFuzzServer is startFuzzServer for a profile.
func startProfileFuzzServer(f *testing.F, profile string) *fuzzServer {
	dir := fixtureRepo(f)
	w := openWiki(f, dir, func(o *wiki.Options) { o.ReadOnly = true })
	srv := mcpserver.New(w, mcpserver.Options{ReadOnly: true, Logger: slog.New(slog.DiscardHandler), Profiles: table.Profiles(), Profile: profile})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.ServeStdio(ctx, inR, outW)
	}()
	f.Cleanup(func() {
		inW.Close()
		cancel()
		outR.Close()
		<-done
	})
	fs := &fuzzServer{in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	fs.call(f, "initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "fuzz", "version": "1"}})
	var list struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(fs.call(f, "tools/list", map[string]any{}), &list); err != nil {
		f.Fatal(err)
	}
	for _, t := range list.Result.Tools {
		fs.tools = append(fs.tools, t.Name)
	}
	if profile != "" {
		return fs
	}
	// A read-only server lists no mutating tool; call them anyway.
	fs.tools = append(fs.tools, "write_note", "edit_note", "update_metadata", "delete_note", "move_note",
		"apply_changes", "restore_note", "revert_change", "daily_note")
	return fs
}

// allocBudget bounds what one fuzzed call may allocate: the fixture wiki's
// largest honest answers (every note, the whole graph) take a few MiB, so
// a call that allocates far more than this plus a multiple of its input
// sized something from an argument before checking it.
const allocBudget = 32 << 20

// FuzzToolArguments calls every tool with arbitrary arguments, valid JSON
// or not, through the stdio transport: each call is answered (a result or
// an error) within 10 s, nothing panics, the stream goes on, and no call
// allocates far beyond its input's size.
func FuzzToolArguments(f *testing.F) {
	fs := startFuzzServer(f)
	for i := range fs.tools {
		for _, seed := range []string{`{}`, `{"path":"a"}`, `{"query":"x tag:y","limit":3}`, `{"path":["a"]}`,
			`{"path":"../x","content":"y"}`, `{"edits":[{"op":"append","content":"z"}],"path":"a"}`, `[1,2]`, `null`,
			`{"pattern":"(a|b)*c","regex":true}`, `{"names":["a","b"],"strategy":"fuzzy"}`, `{"cursor":"AAAA"}`} {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, tool uint8, args []byte) {
		fuzzCall(t, fs, fs.tools[int(tool)%len(fs.tools)], args)
	})
}

// FuzzProfileArguments calls the read tools of every profile but wikid's
// with arbitrary arguments: every call is answered, nothing panics.
func FuzzProfileArguments(f *testing.F) {
	var servers []*fuzzServer
	for _, p := range table.Profiles().Names()[1:] {
		servers = append(servers, startProfileFuzzServer(f, p))
	}
	for i := range servers {
		for j := range servers[i].tools {
			for _, seed := range []string{`{}`, `{"path":"projects/alpha/plan.md"}`, `{"id":"projects/alpha/plan.md","depth":1}`,
				`{"query":"plan","limit":3}`, `{"path":"../x"}`, `{"names":["plan"],"strategy":"fuzzy"}`, `{"pattern":"(a|b)*c"}`,
				`{"tags":["project"],"mode":"all"}`, `{"property_name":"status","operator":">","value":"2"}`, `[1]`, `null`} {
				f.Add(uint8(i), uint8(j), []byte(seed))
			}
		}
	}
	f.Fuzz(func(t *testing.T, server, tool uint8, args []byte) {
		fs := servers[int(server)%len(servers)]
		fuzzCall(t, fs, fs.tools[int(tool)%len(fs.tools)], args)
	})
}

// fuzzCall calls a tool with args and fails unless it is answered, within
// the allocation budget, without a panic.
func fuzzCall(t *testing.T, fs *fuzzServer, name string, args []byte) {

	var arguments any = json.RawMessage(args)
	if !json.Valid(args) {
		arguments = string(args)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	line := fs.call(t, "tools/call", map[string]any{"name": name, "arguments": arguments})
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > allocBudget+64*uint64(len(args)) {
		t.Fatalf("%s %q: the call allocated %d KiB for %d bytes of arguments", name, args, alloc>>10, len(args))
	}
	var ans struct {
		Result *struct {
			IsError bool `json:"isError"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(line, &ans); err != nil || (ans.Result == nil && ans.Error == nil) {
		t.Fatalf("%s %q: answer %s", name, args, line)
	}
	if strings.Contains(string(line), "panic recovered in") || ans.Error != nil && ans.Error.Code == -32603 {
		t.Fatalf("%s %q: a handler panicked: %s", name, args, line)
	}
}
