// Package daemon runs one wikid process per repository and lets every
// client share it: MCP clients over stdio reach it through a bridge, the
// command line forwards its commands to it, and it serves HTTP. The daemon
// owns the repository's writer and its derived state (search index, history
// index, link graph), so they are opened, built and kept warm once: it holds
// the one wiki.Wiki whose follower keeps every derived store in step with
// the branch, for every client at once. The wiki answers in data and
// references; each connection is worded and encoded by its own front end
// (the MCP server for MCP sessions, the command line for forwarded
// commands), so one daemon serves both in their own words.
//
// A daemon listens on a unix socket in the user's runtime directory
// (RuntimeDir), mode 0600, named from the repository's git directory
// (Locate). It holds a lock file (Lock) while it runs, in the repository's
// daemon folder (wikid/daemon in the git folder, private to the user), and
// records there its socket and process (Record), so that a client whose
// environment names another runtime folder finds it (Discover): a second
// daemon for the same repository cannot start, from any environment, and a
// socket or record left by one that died is recognised as stale and
// replaced. The same code runs on Windows, with a file lock that Windows
// honours, a runtime folder in %LOCALAPPDATA%, and a named pipe in place
// of the socket (named from the socket's path, open to the user and the
// system only; a client checks that the process serving it is the
// user's). The lock comes first: a
// process takes it before it opens the repository, and lets go of it after
// closing it, so one that is not to be the daemon learns it at once, having
// opened nothing, rolled back nothing and waited for nothing.
//
// The protocol on the socket is one JSON line from the client (a hello,
// naming what the connection is for) and one JSON line back (ok, or an
// error); then, for an MCP connection, the MCP stream itself (newline
// delimited JSON-RPC, as over stdio); for a command, frames (see frame);
// for status, stop and http (add an HTTP listener to a running daemon), the
// reply is the whole exchange.
package daemon
