// Package grammar parses wikid's search query language into an AST. It is
// pure: it knows nothing of the index that runs the queries.
package grammar
