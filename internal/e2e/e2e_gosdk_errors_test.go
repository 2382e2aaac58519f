package e2e_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGoSDK_ErrorCodes is the official Go SDK on protocol 2026-07-28, over
// stdio through the daemon and over HTTP: a missing or bad prompt argument,
// a completion of a prompt that does not exist and a missing note or
// commit are refused with invalid params (-32602), which 2026-07-28 gives a
// resource that does not exist too, never with an internal error; ping,
// which the protocol removed, is refused as an unknown method (-32601) on
// both transports.
func TestGoSDK_ErrorCodes(t *testing.T) {
	dir := fixtureRepo(t)
	env := sharedEnv(t, dir)
	const token = "go-sdk-errors"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	clients := []*goSDKClient{
		connectGoSDK(t, "errors-stdio", stdioTransport(env, dir)),
		connectGoSDK(t, "errors-http", &mcp.StreamableClientTransport{Endpoint: p.url, HTTPClient: &http.Client{Transport: bearer{token}}}),
	}
	ctx := context.Background()
	for _, c := range clients {
		s := c.session
		cases := []struct {
			name string
			want int64
			call func() error
		}{
			{"missing prompt argument", -32602, func() error {
				_, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "summarize_history", Arguments: map[string]string{}})
				return err
			}},
			{"bad prompt argument", -32602, func() error {
				_, err := s.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review_changes", Arguments: map[string]string{"since": "yesterday-ish"}})
				return err
			}},
			{"completion of an unknown prompt", -32602, func() error {
				_, err := s.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "no_such_prompt"},
					Argument: mcp.CompleteParamsArgument{Name: "path", Value: "pro"}})
				return err
			}},
			{"missing note", -32602, func() error {
				_, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "wiki://note/no/such/note"})
				return err
			}},
			{"missing commit", -32602, func() error {
				_, err := s.ReadResource(ctx, &mcp.ReadResourceParams{URI: "wiki://commit/0123456789abcdef"})
				return err
			}},
			{"ping", -32601, func() error { return s.Ping(ctx, nil) }},
		}
		for _, tc := range cases {
			t.Run(c.name+"/"+tc.name, func(t *testing.T) {
				err := tc.call()
				var we *jsonrpc.Error
				if !errors.As(err, &we) {
					t.Fatalf("got %v (%T), want a JSON-RPC error %d", err, err, tc.want)
				}
				if we.Code != tc.want {
					t.Errorf("code %d (%s), want %d", we.Code, we.Message, tc.want)
				}
			})
		}
	}
}
