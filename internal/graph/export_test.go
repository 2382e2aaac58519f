package graph

// Dump renders everything the graph holds, in a canonical order, for the
// tests outside the package.
func Dump(g *Graph) string { return dump(g) }
