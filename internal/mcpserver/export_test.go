package mcpserver

// DecodeWire is decodeWire, for the tests outside the package.
var DecodeWire = decodeWire
