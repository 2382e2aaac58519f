package index

import "testing"

func TestUnsaved(t *testing.T) {
	closed := func(c <-chan struct{}) bool {
		select {
		case <-c:
			return true
		default:
			return false
		}
	}
	var u unsaved
	if !closed(u.saved()) {
		t.Fatal("nothing pending, yet not saved")
	}
	a, b := u.add(), u.add()
	wait := u.saved()
	a()
	a() // a second call changes nothing
	if closed(wait) || closed(u.saved()) {
		t.Fatal("saved with one batch pending")
	}
	b()
	if !closed(wait) || !closed(u.saved()) {
		t.Fatal("not saved with nothing pending")
	}
	c := u.add()
	if closed(u.saved()) {
		t.Fatal("saved with a new batch pending")
	}
	c()
	if !closed(u.saved()) {
		t.Fatal("not saved after the new batch")
	}
}
