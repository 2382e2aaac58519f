//go:build race

package grammar

// raceEnabled is true when the tests run under the race detector, which
// makes the exhaustive tests slow enough to trim.
const raceEnabled = true
