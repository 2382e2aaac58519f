package mcpserver

// DecodeWire is decodeWire, for the tests outside the package.
var DecodeWire = decodeWire

// Instructions are the server's instructions, for the tests outside the
// package.
const Instructions = instructions
