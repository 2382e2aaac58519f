package mcpserver

import (
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
)

// envelope is what the HTTP handler and a stream session read of a
// JSON-RPC message before mcp-go decodes it: what it is, its id, the
// request a notifications/cancelled names, and the tool a tools/call
// calls. A body that is not one leaves it zero.
type envelope struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
		// Name is the tool a tools/call calls.
		Name string `json:"name"`
		Meta struct {
			ProtocolVersion string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	} `json:"params"`
}

// modern reports whether the message says it speaks protocol 2026-07-28
// or later.
func (e envelope) modern() bool { return mcp.IsModernProtocol(e.Params.Meta.ProtocolVersion) }

// readEnvelope decodes body's envelope, once per request.
func readEnvelope(body []byte) envelope {
	var e envelope
	_ = json.Unmarshal(body, &e)
	return e
}
