// Package tool is the kit every MCP tool of wikid is made with, whatever
// profile serves it, without the transport: a Tool is a name, a
// description, an input schema that is both published and enforced (an
// unknown argument, a wrong type or a value outside its enum or range is
// INVALID_PARAMS naming the argument), an output schema, and a RunFunc
// that runs on wiki.Wiki through an Env.
//
// Schema describes arguments and results; DecodeArgs decodes arguments
// into a Go value while it checks them, and EncodeStructured writes a
// result as the JSON its output schema describes, so that the core's
// types carry no JSON tags. A Profile is a set of tools with the words
// they use for the core's references.
package tool
