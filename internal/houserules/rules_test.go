package houserules

// The house, floor by floor: for each package of ours, its floor and the
// packages of ours it may import. An import may stay on its floor (when
// listed) or go down, never up. A new package needs its entry here and its
// line in ARCHITECTURE.md.
var rooms = map[string]room{
	// Floor 0: leaves.
	"grammar":                      {0, nil},
	"internal/wikierr":             {0, nil},
	"internal/textdiff":            {0, nil},
	"internal/procid":              {0, nil},
	"internal/noreplace":           {0, nil},
	"internal/imaging":             {0, nil},
	"internal/gemm":                {0, nil},
	"internal/encoder":             {0, []string{"internal/gemm"}},
	"internal/encoder/builtin":     {0, []string{"internal/encoder"}},
	"internal/encoder/convert":     {0, []string{"internal/encoder"}},
	"internal/encoder/distil":      {0, []string{"internal/encoder"}},
	"internal/staticembed":         {0, nil},
	"internal/staticembed/convert": {0, []string{"internal/staticembed"}},
	"internal/embed":               {0, nil},
	"internal/embed/embedtest":     {0, nil},
	"internal/dist":                {0, nil},
	"internal/gittest":             {0, nil},

	// Floor 1: the note model.
	"internal/note":   {1, []string{"internal/wikierr"}},
	"internal/gather": {1, []string{"internal/note"}},

	// Floor 2: the core.
	"internal/wiki": {2, []string{"grammar", "internal/gather", "internal/note", "internal/textdiff", "internal/wikierr"}},

	// Floor 3: adapters.
	"internal/gitstore": {3, []string{"internal/wiki", "internal/note", "internal/textdiff", "internal/noreplace", "internal/procid",
		"internal/gitstore/internal/gitdir", "internal/gitstore/internal/gitformat", "internal/gitstore/internal/gitindex",
		"internal/gitstore/internal/gitnotes", "internal/gitstore/internal/objdir", "internal/gitstore/internal/journal",
		"internal/gitstore/internal/memo", "internal/gitstore/internal/status", "internal/gitstore/internal/refdir",
		"internal/gitstore/internal/tempfile"}},
	"internal/gitstore/internal/gitformat": {3, nil},
	"internal/gitstore/internal/gitdir":    {3, []string{"internal/gitstore/internal/gitformat"}},
	"internal/gitstore/internal/gitindex":  {3, []string{"internal/gitstore/internal/gitformat"}},
	"internal/gitstore/internal/gitnotes":  {3, []string{"internal/gitstore/internal/gitformat"}},
	"internal/gitstore/internal/objdir":    {3, []string{"internal/gitstore/internal/gitformat"}},
	"internal/gitstore/internal/journal":   {3, []string{"internal/procid"}},
	"internal/gitstore/internal/memo":      {3, nil},
	"internal/gitstore/internal/refdir":    {3, []string{"internal/gitstore/internal/gitformat"}},
	"internal/gitstore/internal/status":    {3, []string{"internal/gitstore/internal/gitformat", "internal/gitstore/internal/gitindex"}},
	"internal/gitstore/internal/tempfile":  {3, nil},
	"internal/index":                       {3, []string{"internal/wiki", "internal/note", "grammar", "internal/index/analysis"}},
	"internal/index/analysis":              {3, nil},
	"internal/history":                     {3, []string{"internal/wiki", "internal/textdiff"}},
	"internal/graph":                       {3, []string{"internal/wiki", "internal/note"}},
	"internal/semantic":                    {3, []string{"internal/wiki", "internal/note", "internal/gather"}},
	"internal/gitsync":                     {3, []string{"internal/wiki", "internal/note", "internal/textdiff"}},

	// Floor 4: words and kits.
	"internal/render": {4, []string{"internal/wiki", "internal/gitsync"}},
	"internal/tool":   {4, []string{"internal/wiki", "internal/note", "internal/render", "internal/gitsync"}},
	"internal/config": {4, []string{"internal/wiki"}},

	// Floor 5: tool sets.
	"internal/tools":               {5, []string{"internal/wiki", "internal/note", "internal/render", "internal/tool", "internal/imaging"}},
	"internal/profiles/braindrive": {5, profile},
	"internal/profiles/cairn":      {5, profile},
	"internal/profiles/obsidian":   {5, profile},
	"internal/profiles/roux":       {5, profile},
	"internal/profiles/wikiai":     {5, profile},
	"internal/profiles/wikid":      {5, profile},
	"internal/profiles/profiletest": {7, []string{"internal/wiki", "internal/tools/toolstest", "internal/gittest",
		"internal/mcpserver", "internal/tool"}},

	// Floor 6: front ends.
	"internal/mcpserver": {6, []string{"internal/wiki", "internal/note", "internal/tool", "internal/render", "internal/gitsync"}},
	"internal/web":       {6, []string{"internal/wiki", "internal/imaging", "internal/textdiff"}},
	"internal/daemon":    {6, []string{"internal/wiki", "internal/mcpserver", "internal/procid"}},

	// Floor 7: the program, the test kits and measures.
	"cmd/wikid": {7, []string{"internal/config", "internal/daemon", "internal/embed", "internal/gitstore", "internal/gitsync",
		"internal/graph", "internal/history", "internal/index", "internal/mcpserver", "internal/note", "internal/render",
		"internal/semantic", "internal/staticembed", "internal/tools", "internal/web", "internal/wiki", "internal/encoder",
		"internal/encoder/builtin", "internal/profiles/table", "internal/tool", "internal/wikierr", "internal/textdiff"}},
	"internal/profiles/table": {7, []string{"internal/mcpserver", "internal/profiles/braindrive", "internal/profiles/cairn",
		"internal/profiles/obsidian", "internal/profiles/roux", "internal/profiles/wikiai", "internal/profiles/wikid"}},
	"internal/e2e": {7, nil},
	"internal/tools/toolstest": {7, []string{"internal/wiki", "internal/gitstore", "internal/index", "internal/history",
		"internal/graph", "internal/semantic", "internal/gittest", "internal/mcpserver", "internal/profiles/table", "internal/tool"}},
	"internal/storetest": {7, []string{"internal/wiki", "internal/gitstore", "internal/index", "internal/history",
		"internal/graph", "internal/gittest"}},
	"internal/quality":    {7, []string{"internal/gather"}},
	"internal/houserules": {7, nil},
}

// profile is what a seed profile may import.
var profile = []string{"internal/wiki", "internal/note", "internal/tool", "internal/tools", "internal/render", "internal/imaging"}

// room is a package's place in the house.
type room struct {
	floor   int
	imports []string
}

// owners names, for each heavy dependency (an import path prefix), the
// one package that imports it, with the packages under that package.
var owners = map[string]string{
	"github.com/go-git/":               "internal/gitstore",
	"github.com/blevesearch/bleve":     "internal/index",
	"github.com/blevesearch/zapx/":     "internal/index",
	"go.etcd.io/bbolt":                 "internal/index",
	"github.com/mark3labs/mcp-go":      "internal/mcpserver",
	"github.com/yuin/goldmark":         "internal/web",
	"github.com/sergi/go-diff":         "internal/textdiff",
	"golang.org/x/image":               "internal/imaging",
	"github.com/alecthomas/participle": "grammar",
	// The official Go SDK is a client the end-to-end suites drive wikid
	// with, in their tests only: no package of wikid's imports it.
	"github.com/modelcontextprotocol/go-sdk": "internal/e2e",
}

// execAllowed lists the packages whose code may import os/exec: those that
// must run another program.
var execAllowed = map[string]string{
	"internal/gitsync":                    "runs git fetch, merge and push",
	"internal/gitstore/internal/gitnotes": "writes git notes with git itself, under git's locks",
	"internal/daemon":                     "starts the daemon, its own binary",
	"cmd/wikid":                           "opens the review pages in a browser",
	"internal/gittest":                    "drives the real git CLI for tests",
	"internal/quality":                    "fetches the corpora with git",
}

// maxPackageLines bounds a package's non-test lines; maxFileLines any Go
// file's lines, tests included.
const (
	maxPackageLines = 5000
	maxFileLines    = 1000
)

// bigPackages may pass maxPackageLines.
var bigPackages = map[string]string{
	"internal/wiki": "the domain core: every operation's orchestration lives here, split into files by operation",
}

// sideDoors lists, for the packages that must reach the repository through
// wiki.Wiki only, what they may not write: a selector name (a call of
// .Store, finding the syncer through the wiki), a string literal's text, a
// type assertion on a field, or any type assertion to an interface written
// in place (a hidden interface of an adapter).
var sideDoors = map[string][]door{
	"internal/web": {
		{hidden: true, why: "a type assertion to a hidden interface: what the pages need is on wiki.Wiki"},
		{selector: "Store", why: "reaches round wiki.Wiki to its store"},
		{literal: "diff --git", why: "reads a unified diff's text instead of the wiki's structured diff"},
	},
	"internal/gitsync": {
		{hidden: true, why: "a type assertion to a hidden interface: what sync needs is on wiki.Wiki"},
		{selector: "Store", why: "reaches round wiki.Wiki to its store"},
		{selector: "SyncReporter", why: "finds the syncer through the wiki: the program makes it and hands it over"},
	},
	"internal/wiki": {
		{hidden: true, why: "a type assertion to a hidden interface: what the core asks of its store is on Store"},
		{assertOn: "store", why: "asserts an interface on the store: what the core needs is on Store"},
	},
}

// door is one side door: a selector, a string literal's text, a type
// assertion on a field, or to an interface written in place.
type door struct {
	hidden   bool
	selector string
	literal  string
	assertOn string
	why      string
}

// exceptions are the rules' exceptions, each with its reason: at most
// five, each to be removed when its reason is gone.
var exceptions = []exception{
	{rule: ruleOwner, pkg: "internal/profiles/profiletest", what: "github.com/mark3labs/mcp-go/",
		why: "a test kit: it calls a profile's tools with mcp-go's client, as the profile's clients do"},
	{rule: ruleOwner, pkg: "internal/tools/toolstest", what: "github.com/mark3labs/mcp-go/",
		why: "a test kit: the tools' tests and the end-to-end suites call the tools with mcp-go's client, as clients do"},
}

// The rules an exception may name.
const (
	ruleImports = "imports"
	ruleOwner   = "owner"
	ruleMap     = "map"
)

// exception lets pkg break rule for what: an import path, or a prefix of
// one when it ends in "/".
type exception struct {
	rule, pkg, what, why string
}
