package e2e_test

import (
	"context"
	"testing"

	"github.com/mark3labs/mcp-go/client"

	"github.com/wikid/wikid/internal/tools/toolstest"
)

// The suites serve a wiki in their own process with the kit the tools'
// tests use (package toolstest), under these shorter names.

// The client the tests connect as, and the commit identity it gets.
const (
	clientName    = toolstest.ClientName
	clientVersion = toolstest.ClientVersion
	wantClient    = toolstest.WantClient
)

// handshakeProtocol asks a client for the initialize handshake.
const handshakeProtocol = toolstest.HandshakeProtocol

type (
	session     = toolstest.Session
	mutationOut = toolstest.MutationOut
)

var (
	fixtureRepo       = toolstest.FixtureRepo
	openWiki          = toolstest.OpenWiki
	openWikiEmbedding = toolstest.OpenWikiEmbedding
	serveHTTP         = toolstest.ServeHTTP
	connectHTTP       = toolstest.ConnectHTTP
	newSession        = toolstest.NewSession
	closeObjects      = toolstest.CloseObjects
	compileSchema     = toolstest.CompileSchema
	text              = toolstest.Text
	structuredJSON    = toolstest.StructuredJSON
	git               = toolstest.Git
	lastCommit        = toolstest.LastCommit
	checkCommit       = toolstest.CheckCommit
	jsonOf            = toolstest.JSONOf
	checkClean        = toolstest.CheckClean
	noteFileOf        = toolstest.NoteFileOf
	benchSession      = toolstest.BenchSession
	lastChange        = toolstest.LastChange
	datedFixture      = toolstest.DatedFixture
	sameTime          = toolstest.SameTime
)

// initializeStarted initializes a started client as test-client/1.2.
func initializeStarted(tb testing.TB, ctx context.Context, c *client.Client, protocol string) {
	tb.Helper()
	toolstest.InitializeStarted(tb, ctx, c, protocol)
}

// ok calls a tool that must succeed and decodes its structured content
// into a T.
func ok[T any](s *session, name string, args map[string]any) (T, string) {
	s.TB.Helper()
	return toolstest.OK[T](s, name, args)
}

// waitIndexed waits until the search index has caught up.
func waitIndexed(t *testing.T, s *session) {
	t.Helper()
	toolstest.WaitIndexed(t, s)
}
