// Package houserules holds the test that keeps the code's house rules,
// which ARCHITECTURE.md states in words: each package imports only the
// packages of ours its floor allows, each heavy dependency has one owner,
// os/exec appears only where a program must run another, no package or
// file outgrows its bound, every package is documented and has its line in
// ARCHITECTURE.md, and the front ends use no side door round wiki.Wiki.
// make lint runs it; its exceptions live in one table, each with its
// reason.
package houserules
