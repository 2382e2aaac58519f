package e2e_test

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/wikid/wikid/internal/gittest"
)

// goSDKClient is a session of the official Go SDK, which speaks protocol
// 2026-07-28 by default, and the resources/updated notifications it got.
type goSDKClient struct {
	name    string
	session *mcp.ClientSession
	mu      sync.Mutex
	updates []update
	arrived chan struct{} // pulsed on each notification
}

// update is one notifications/resources/updated, with when it arrived.
type update struct {
	uri string
	at  time.Time
}

// connectGoSDK connects the Go SDK over t, as a client named name.
func connectGoSDK(tb testing.TB, name string, t mcp.Transport) *goSDKClient {
	tb.Helper()
	c := &goSDKClient{name: name, arrived: make(chan struct{}, 1)}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			c.mu.Lock()
			c.updates = append(c.updates, update{uri: req.Params.URI, at: time.Now()})
			c.mu.Unlock()
			select {
			case c.arrived <- struct{}{}:
			default:
			}
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := client.Connect(ctx, t, nil)
	if err != nil {
		tb.Fatalf("%s: connect: %v", name, err)
	}
	if v := s.InitializeResult().ProtocolVersion; v != "2026-07-28" {
		tb.Errorf("%s: protocol %s, want 2026-07-28", name, v)
	}
	c.session = s
	tb.Cleanup(func() { s.Close() })
	return c
}

// told waits up to 10 s for a notification that uri changed that arrived
// after start, and returns how long after start it arrived.
func (c *goSDKClient) told(tb testing.TB, uri string, start time.Time) time.Duration {
	tb.Helper()
	deadline := time.After(10 * time.Second)
	for {
		c.mu.Lock()
		for _, u := range c.updates {
			if u.uri == uri && !u.at.Before(start) {
				c.mu.Unlock()
				return u.at.Sub(start)
			}
		}
		c.mu.Unlock()
		select {
		case <-c.arrived:
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			tb.Fatalf("%s was not told that %s changed within 10 s", c.name, uri)
		}
	}
}

// since returns the notifications that arrived at or after start.
func (c *goSDKClient) since(start time.Time) []update {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []update
	for _, u := range c.updates {
		if !u.at.Before(start) {
			out = append(out, u)
		}
	}
	return out
}

// stdioTransport runs wikid serve over dir with env, for the Go SDK.
func stdioTransport(env []string, dir string) mcp.Transport {
	cmd := exec.Command(wikidBin, "serve", "--repo", dir)
	cmd.Env = env
	return &mcp.CommandTransport{Command: cmd}
}

// change is a way to change a note, timed from its start.
type change struct {
	how  string
	make func(t *testing.T, content string)
}

// goSDKChanges are the three ways a note changes: another client (writer,
// with write_note), the command line (wikid write through the daemon) and
// a person's git commit in the checkout.
func goSDKChanges(t *testing.T, writer *goSDKClient, env []string, dir, notePath string) []change {
	ctx := context.Background()
	return []change{
		{"another client", func(t *testing.T, content string) {
			res, err := writer.session.CallTool(ctx, &mcp.CallToolParams{Name: "write_note",
				Arguments: map[string]any{"path": notePath, "content": content, "overwrite": true}})
			if err != nil || res.IsError {
				t.Fatalf("write_note: %v %v", err, res)
			}
		}},
		{"wikid write", func(t *testing.T, content string) {
			cmd := exec.Command(wikidBin, "write", notePath, "--repo", dir, "--overwrite")
			cmd.Env, cmd.Stdin = env, strings.NewReader(content)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("wikid write: %v\n%s", err, out)
			}
		}},
		{"git commit", func(t *testing.T, content string) {
			gittest.Commit(t, dir, "by hand", map[string]string{notePath + ".md": content})
		}},
	}
}

// bearer is an http.RoundTripper that sends a bearer token.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestGoSDK_Subscriptions is the official Go SDK on protocol 2026-07-28
// (subscriptions/listen), over stdio through the daemon and over HTTP: a
// note subscribed is told of a change by another client, by the command
// line and by git in the checkout; a session that did not subscribe is
// told nothing; after Unsubscribe, nothing more. Each delay, from the
// start of the change to the notification's arrival, is logged with
// their median and maximum; the test allows 10 s (the 1 s aimed at is
// measured, not asserted, on a busy machine).
func TestGoSDK_Subscriptions(t *testing.T) {
	dir := fixtureRepo(t)
	env := sharedEnv(t, dir)
	const token = "go-sdk-test"
	p := startBinary(t, wikidBin, env, "--repo", dir, "--http", "127.0.0.1:0", "--token", token)
	if p.url == "" {
		<-p.exited
		t.Fatalf("wikid serve --http exited: %v\n%s", p.cmd.ProcessState, p.stderr)
	}
	stdio := func() mcp.Transport { return stdioTransport(env, dir) }
	web := func() mcp.Transport {
		return &mcp.StreamableClientTransport{Endpoint: p.url, HTTPClient: &http.Client{Transport: bearer{token}}}
	}
	watchers := []*goSDKClient{connectGoSDK(t, "watcher-stdio", stdio()), connectGoSDK(t, "watcher-http", web())}
	quiet := []*goSDKClient{connectGoSDK(t, "quiet-stdio", stdio()), connectGoSDK(t, "quiet-http", web())}
	writer := connectGoSDK(t, "writer", stdio())

	const notePath = "projects/alpha/plan"
	noteURI := "wiki://note/" + notePath
	ctx := context.Background()
	for _, w := range watchers {
		if err := w.session.Subscribe(ctx, &mcp.SubscribeParams{URI: noteURI}); err != nil {
			t.Fatalf("%s: subscribe: %v", w.name, err)
		}
	}
	var delays []time.Duration
	changes := goSDKChanges(t, writer, env, dir, notePath)
	start0 := time.Now()
	for i, ch := range changes {
		t.Run(ch.how, func(t *testing.T) {
			start := time.Now()
			ch.make(t, "# Plan\n\nchange "+string(rune('a'+i))+" by "+ch.how+"\n")
			for _, w := range watchers {
				d := w.told(t, noteURI, start)
				delays = append(delays, d)
				t.Logf("%s: %s is told %s after the change began", ch.how, w.name, d.Round(time.Millisecond))
			}
		})
	}
	for _, q := range quiet {
		if got := q.since(start0); len(got) > 0 {
			t.Errorf("%s subscribed to nothing and was told %v", q.name, got)
		}
	}

	// Unsubscribed, the stdio watcher is told nothing more; the HTTP
	// watcher, still subscribed, says when the change was sent.
	if err := watchers[0].session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: noteURI}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the listen stream's cancel is a notification, not a request
	start := time.Now()
	changes[0].make(t, "# Plan\n\nafter the unsubscribe\n")
	watchers[1].told(t, noteURI, start)
	time.Sleep(500 * time.Millisecond)
	if got := watchers[0].since(start); len(got) > 0 {
		t.Errorf("%s unsubscribed and was told %v", watchers[0].name, got)
	}

	slices.Sort(delays)
	if len(delays) > 0 {
		t.Logf("Go SDK on 2026-07-28: %d notifications, median %s, max %s after the change began",
			len(delays), delays[len(delays)/2].Round(time.Millisecond), delays[len(delays)-1].Round(time.Millisecond))
	}
}
