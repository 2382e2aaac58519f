// Package grammar parses wikid's search query language into an AST. It is
// pure: it knows nothing of the index that runs the queries, and it imports
// no other package of wikid.
//
// # Syntax
//
//	mcp                      a word, in title, aliases or body
//	meet*                    words starting with "meet"
//	"model context protocol" an exact phrase
//	title:meeting            title only; title:"a phrase" too
//	tag:research             has the tag (the index also matches nested tags)
//	folder:projects/wiki-ai  under the folder
//	path:daily/2024-*        the path matches a glob
//	links:x, linkedfrom:x    links to x, is linked from x
//	status:"in progress"     any other key:value is a frontmatter property
//	modified:>=2024-01-01    date comparisons: > >= < <= and = (implied)
//	created:2024-01..2024-03 date ranges; open ends: 2024.. and ..2024-06
//	a AND b, a b             both
//	a OR b                   either; OR binds looser than AND
//	-x, NOT x                exclude
//	(a OR b) c               grouping
//
// AND, OR and NOT are operators only in uppercase; "and" is a word. Field
// names are case-insensitive (Tag:x is tag:x). A word that merely contains a
// colon stays a word: a URL (https://x.y/z), a time (12:30), ":x". A value
// may be quoted wherever a value goes: tag:"with space". Inside quotes, \"
// stands for a quote and \\ for a backslash.
//
// Dates are YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (in the time
// zone given to Parse) or an RFC 3339 timestamp (2024-06-01T10:00:00Z), with
// years from 1000 to 9999; Period reads them the same way outside a query.
// A date covers its whole span (a timestamp, the second or fraction it
// names), and each term becomes a half-open interval [From, To):
//
//	modified:2024-06     [2024-06-01, 2024-07-01)
//	modified:>2024-06    [2024-07-01, open)
//	modified:<=2024      [open, 2025-01-01)
//	modified:..2024-06   [open, 2024-07-01)
//
// # Grammar
//
// In EBNF, over the tokens below; white space separates tokens and is
// otherwise ignored.
//
//	query  = [ or ] .
//	or     = and { "OR" and } .
//	and    = unary { [ "AND" ] unary } .
//	unary  = ( "NOT" | "-" ) unary | "(" or ")" | term .
//	term   = word | phrase | field .
//
//	word   = wordch { wordch } .        (* not AND, OR or NOT; never starts with "-" *)
//	wordch = any character except white space, "(", ")" and '"' .
//	phrase = '"' { any character except '"' and "\" | '\"' | "\\" | "\" } '"' .
//	field  = key ":" ( value | phrase ) .  (* no space around ":" *)
//	key    = letter { letter | digit | "_" | "-" } .
//	value  = wordch { wordch } .        (* not starting with "//": that is a URL, a word *)
//
//	dates  = [ ">" | ">=" | "<" | "<=" | "=" ] date
//	       | date ".." [ date ] | ".." date .
//	date   = YYYY | YYYY "-" MM | YYYY "-" MM "-" DD
//	       | YYYY "-" MM "-" DD "T" hh ":" mm [ ":" ss ] | rfc3339 .
//
// A '-' must touch the term it excludes ("-x", not "- x"). A trailing '*' on
// an unquoted word or value marks a prefix search, except in path (where it
// belongs to the glob) and in dates.
//
// # Errors
//
// Parse rejects a query with an *Error that carries the 1-based byte column
// of the problem and says what is wrong in plain words, for example:
//
//	unbalanced parenthesis: '(' at column 5 is never closed
//	unexpected ')' at column 9
//	dangling operator OR at column 3: expected a term after it
//	empty value for field tag at column 1
//	bad date "2024-13" for modified at column 10: expected YYYY, YYYY-MM, YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] or RFC 3339
//	unterminated quote: '"' at column 4 is never closed
//
// Queries are at most MaxLength bytes and nest at most MaxDepth levels of
// parentheses and negations. Unknown field names are not errors: they name
// frontmatter properties, and the caller decides what to do with them.
package grammar
