// Package gather chooses the few sections of a wiki's notes that best
// answer a question within a token budget.
//
// The wiki finds candidate notes (a search for the question's terms, the
// notes the best hits link to, how recently each changed) and gives each a
// prior; Split cuts each note into sections by its headings; Pack scores
// the sections by the question's terms and fills the budget with the best,
// cutting a long one to its lines around the terms. Every pick keeps the
// file lines it came from, so an assistant can cite it, read on, or edit it.
//
// Terms match by English stem in Latin scripts (decide, decided and
// deciding share the stem decid), and as substrings in other scripts,
// where words are not separated by spaces.
package gather
