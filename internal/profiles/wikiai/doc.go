// Package wikiai serves Wiki-AI's thirteen tools with its names,
// input schemas and text responses, worded as its document words them.
// Where the document is silent, the tool does what wikid does, and its
// description says so.
package wikiai
