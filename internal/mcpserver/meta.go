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

// refusePing answers a ping of protocol 2026-07-28 or later, which that
// protocol removed, as mcp-go answers one that carries the protocol's
// _meta: -32601, method not found (HTTP 404). A client (the Go SDK's
// keepalive) may send one without that _meta, which mcp-go would refuse
// as a malformed request instead. Over stdio the session answers the same
// (see pingRemoved). It reports whether the message was such a ping.
func refusePing(w http.ResponseWriter, h http.Header, msg envelope) bool {
	if !mcp.IsModernProtocol(h.Get(mcp.HeaderProtocolVersion)) || msg.Method != string(mcp.MethodPing) ||
		len(msg.ID) == 0 || strings.ContainsAny(string(msg.ID[:1]), "{[n") {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	b, _ := json.Marshal(pingRemoved(msg.ID))
	w.Write(append(b, '\n'))
	return true
}

// pingRemoved is the answer to a ping of protocol 2026-07-28 or later.
func pingRemoved(id json.RawMessage) mcp.JSONRPCError {
	return mcp.NewJSONRPCError(mcp.NewRequestId(rawID(id)), mcp.METHOD_NOT_FOUND,
		fmt.Sprintf("%q was removed in protocol version %s", mcp.MethodPing, mcp.ProtocolVersion20260728), nil)
}
