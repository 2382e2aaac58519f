package index

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrDamaged is returned when reading the index's files faulted: a segment
// file was truncated or damaged under it. The index then reports no
// commit, so that the next catch-up rebuilds it.
var ErrDamaged = errors.New("search index damaged")

// faultGuard makes a memory fault in the calling goroutine (bleve reads
// its segments through memory maps, and a truncated file faults instead of
// failing a read) a panic that guard turns into ErrDamaged, instead of a
// crash of the process. Use it as
//
//	defer x.guard(&err)
//	defer faultGuard()()
func faultGuard() func() {
	old := debug.SetPanicOnFault(true)
	return func() { debug.SetPanicOnFault(old) }
}

// guard recovers a memory fault, reports it as ErrDamaged in *err and
// marks the index damaged; any other panic goes on.
func (x *Index) guard(err *error) {
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); !fault {
		panic(r)
	}
	x.log.Error("the search index faulted reading its files; it will be rebuilt", "fault", r)
	x.setCommit("")
	*err = fmt.Errorf("%w (%v): it is being rebuilt; retry in a moment", ErrDamaged, r)
}
