//go:build race

package e2e_test

// raceEnabled is set when the tests run with the race detector.
const raceEnabled = true
