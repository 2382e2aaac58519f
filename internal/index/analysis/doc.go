// Package analysis is the word analysis of wikid's search index: the
// language a note is written in (declared in its frontmatter, or told from
// its stop words: Detect, Declared), the script most of its letters are in
// (DominantScript), the token filters bleve's analyzers use for CJK text
// (unigrams and bigrams) and for Latin words in notes of other scripts
// (LatinEnglish), and the stop words of every language (StopWords,
// LanguageIndex, FoldRune). It registers its filters with bleve's registry
// when it is imported.
package analysis
