// Package graph is wikid's link graph: which note each link of a note
// resolves to, and what follows from that — backlinks with the line they sit
// on, outgoing links and whether they resolve, neighbors, shortest paths,
// hubs by degree and PageRank, broken links, orphans, and the links a move
// or a delete would break, with the text that keeps them working. It
// implements wiki.Graph, a wiki.DerivedStore; it holds everything in
// memory, is built from the files of a commit and patched with the files
// each later commit changes (an update's, or ApplyFiles'), and does no
// I/O.
//
// # Resolving a link
//
// A graph resolves wiki links ([[target]], [[target#heading]],
// [[target|label]], ![[target]]) one of two ways, chosen when it is made
// (NewResolving; the wiki's links.resolve setting): as Obsidian does, or
// the wiki way. An empty target ([[#heading]]) is the linking note itself
// either way.
//
// Obsidian (wiki.ResolveObsidian) resolves by file name and path only,
// never by a title or an alias, ignoring case, as its
// MetadataCache.getLinkpathDest does:
//
//   - the target names a file: when its last segment has a '.', the files
//     with that name ("image.png", "Note.md", "spec.pdf"), else, or when
//     there are none, the files named target + ".md" ([[Plan]] looks for
//     Plan.md; a Plan.markdown is only named [[Plan.markdown]]);
//   - a bare name that one file has resolves to it;
//   - a target starting with "./" or "../" is joined to the linking note's
//     folder, and the file with that path wins;
//   - the file whose whole path is the target (without a leading "/") wins:
//     so for a bare name, the file at the root;
//   - a target starting with "/" resolves to nothing else;
//   - otherwise the files whose path ends with the target (a plain string
//     suffix, as Obsidian compares) are candidates; those whose path starts
//     with the linking note's folder (the folder or below it; again a
//     string prefix) come first, and among each group the shortest path in
//     characters; Obsidian leaves a tie in the order it loaded the files,
//     the graph takes the first path.
//
// A link resolves to a note, or to a file that is not a note (an
// attachment). When a bare name names several notes or files, the link
// keeps the others, for AmbiguousLinks and OutLink.Ambiguous.
//
// The wiki way (wiki.ResolveWiki) resolves by path, then title, then alias,
// ignoring case; among several notes that match the same way, the nearest
// wins. In detail (a markdown extension on the target is ignored):
//
//   - a target starting with "/" is a path from the root: the note with that
//     path;
//   - a target starting with "./" or "../" is a path relative to the folder
//     of the linking note;
//   - a target with a "/" is first a path from the root; otherwise, and for a
//     bare name, the notes whose path ends with the target ("plan" matches
//     projects/alpha/plan, "alpha/plan" too) are candidates; without any,
//     the notes whose title equals it, then those with an alias equal to it;
//   - the nearest candidate wins: the one whose folder shares the most
//     leading folders with the linking note's folder, then the one with the
//     fewest folders, then the one whose path (or title) has the case as
//     written, then the first by file name;
//   - links and embeds whose target has the extension of an attachment (an
//     image, audio, video or PDF file, or for embeds any extension that is
//     not a markdown one) name files, not notes: they resolve by path from
//     the root or, as a bare name, by the end of the path, nearest first.
//
// A markdown link [text](a/b.md) or image ![alt](img/a.png) is a path
// relative to the linking note's folder, percent-decoded; with a markdown
// extension it names a note, with any other extension a file that is not a
// note ("no such file" when there is none). The wiki way it names them
// by path only, as GitHub does. Obsidian looks a markdown link's path up
// as it does a wiki link's (getFirstLinkpathDest); in its resolution a
// path that names no note or file is looked up that way too, and may reach
// one by its name or the end of its path (![](a.png) with the image in
// attachments/, [x](Sub/Note.md) with the note in docs/Sub/).
// A destination without an extension (a folder, LICENSE) is not a link.
//
// A heading after '#' must be the text of a heading of the target (ignoring
// case) or its slug (lowercase, punctuation dropped, spaces as '-', as in
// GitHub anchors); [[t#A#B]] needs both; [[t#^id]] needs a line ending in
// "^id". A link whose note exists but whose heading does not is broken
// ("no such heading"; "no block ^id" for a block). A link to a file that is
// not a note is only checked for existence.
//
// # Edges
//
// The links between two different notes are the graph's edges; a note's
// links to itself are kept (their headings are checked) but are not edges.
// In-degree counts the notes that link to a note, out-degree the notes it
// links to, each once however many links there are. An orphan is a note
// that no other note links to.
//
// # Rewriting links on a move
//
// Relinks looks at every link that resolves to a moved note, every link
// inside a moved note, and every link whose target could name a moved note
// at its new place (by path, file name, title or alias: a move changes
// which note is nearest), and reports those that would no longer resolve
// to the same note (at its new path) once the notes have moved, and those
// that named the note by its file name or path and would reach it only by
// a title or an alias (Obsidian, GitHub and other tools resolve by file
// only). For each it proposes the text that would, in the link's own
// style:
//
//   - a markdown link gets the relative path from the linking note's new
//     folder to the target's file, keeping a leading "./" and
//     percent-encoding when the old text was encoded or the path needs it;
//     a wiki link written as a relative path likewise, without extension
//     unless it had one;
//   - a wiki link written as a path keeps its form: a bare name stays a
//     bare name, a whole path stays the whole path, a partial path keeps as
//     many trailing segments ("alpha/plan" becomes "beta/plan"); when that
//     text would resolve to another note it takes more of the new path,
//     and "/" plus the whole path when nothing shorter does; a link from
//     the root ("/a/b") stays one; a markdown extension written on the
//     target stays;
//   - a link by title or alias (the wiki way) keeps its text unless it now
//     resolves to another note, and then becomes a path as above from the
//     bare name up (a title taken from the file name changes with the file,
//     so a link by it gets the new name);
//   - only the target text changes: a label, a heading, the embed mark and
//     every other byte of the note stay as they are.
//
// Files that are not notes do not move, but a link from a moved note to
// one may stop naming it: a relative path (every markdown link, a wiki
// link starting with "./" or "../") gets the relative path from the note's
// new folder (a markdown path that named the file keeps naming it, not
// reaching it by its name alone), any other wiki link keeps as many trailing segments as it
// had, or more, or "/" plus the whole path.
//
// A link that resolved to nothing before the move is left alone, even when
// the move makes it resolve.
package graph
