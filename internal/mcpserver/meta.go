package mcpserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// withProtocolMeta returns the body of a request of protocol 2026-07-28 or
// later with the _meta that protocol asks of every message, where the
// message is a notification that has none: some clients (the Go SDK) send
// notifications/cancelled without it, and mcp-go would refuse it with 400,
// which ends those clients' sessions. The version is the request's
// header's. Any other body is returned as it is.
func withProtocolMeta(h http.Header, e envelope, body []byte) []byte {
	version := h.Get(mcp.HeaderProtocolVersion)
	if !mcp.IsModernProtocol(version) || !strings.HasPrefix(e.Method, "notifications/") {
		return body
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil {
		return body
	}
	params := map[string]json.RawMessage{}
	if raw, ok := msg["params"]; ok && json.Unmarshal(raw, &params) != nil {
		return body
	}
	meta := map[string]json.RawMessage{}
	if raw, ok := params["_meta"]; ok && json.Unmarshal(raw, &meta) != nil {
		return body
	}
	if _, ok := meta[mcp.MetaKeyProtocolVersion]; ok {
		return body
	}
	meta[mcp.MetaKeyProtocolVersion], _ = json.Marshal(version)
	params["_meta"], _ = json.Marshal(meta)
	msg["params"], _ = json.Marshal(params)
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return out
}

// answerPing answers a ping of protocol 2026-07-28 or later, which that
// protocol removed but clients (the Go SDK) still send to keep a session
// alive, with an empty result, as earlier protocols do; mcp-go would refuse
// it, and those clients would end their sessions. It reports whether the
// message was such a ping.
func answerPing(w http.ResponseWriter, h http.Header, msg envelope) bool {
	if !mcp.IsModernProtocol(h.Get(mcp.HeaderProtocolVersion)) || msg.Method != string(mcp.MethodPing) ||
		len(msg.ID) == 0 || strings.ContainsAny(string(msg.ID[:1]), "{[n") {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", msg.ID)
	return true
}
