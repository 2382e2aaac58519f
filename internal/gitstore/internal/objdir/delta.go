package objdir

import (
	"errors"
	"fmt"
)

var errBadDelta = errors.New("bad delta")

// deltaSizes reads the two sizes a delta starts with: the base's and the
// result's, and returns the rest of the delta.
func deltaSizes(delta []byte) (base, result uint64, rest []byte, err error) {
	base, delta, err = deltaVarint(delta)
	if err != nil {
		return 0, 0, nil, err
	}
	result, delta, err = deltaVarint(delta)
	if err != nil {
		return 0, 0, nil, err
	}
	return base, result, delta, nil
}

// deltaVarint reads a size as deltas write it: seven bits a byte, the
// lowest first.
func deltaVarint(b []byte) (uint64, []byte, error) {
	var v uint64
	for i, shift := 0, uint(0); i < len(b) && shift < 64; i, shift = i+1, shift+7 {
		v |= uint64(b[i]&0x7f) << shift
		if b[i]&0x80 == 0 {
			return v, b[i+1:], nil
		}
	}
	return 0, nil, fmt.Errorf("%w: truncated size", errBadDelta)
}

// applyDelta returns the object that delta makes of base: git's delta
// format, copies from the base and inserted bytes. limit bounds the size of
// the result a delta may declare. It returns an error, and no result, for
// a delta that does not fit its base or does not make the size it declares.
func applyDelta(base, delta []byte, limit uint64) ([]byte, error) {
	baseSize, size, ops, err := deltaSizes(delta)
	if err != nil {
		return nil, err
	}
	if baseSize != uint64(len(base)) {
		return nil, fmt.Errorf("%w: made for a base of %d bytes, not %d", errBadDelta, baseSize, len(base))
	}
	if size > limit {
		return nil, fmt.Errorf("%w: a result of %d bytes", errBadDelta, size)
	}
	out := make([]byte, 0, size)
	for len(ops) > 0 {
		op := ops[0]
		ops = ops[1:]
		switch {
		case op&0x80 != 0: // copy from the base
			off, rest, err := copyArg(op, 0, 4, ops)
			if err != nil {
				return nil, err
			}
			n, rest, err := copyArg(op, 4, 3, rest)
			if err != nil {
				return nil, err
			}
			ops = rest
			if n == 0 {
				n = 0x10000
			}
			if off+n > uint64(len(base)) || uint64(len(out))+n > size {
				return nil, fmt.Errorf("%w: copy out of bounds", errBadDelta)
			}
			out = append(out, base[off:off+n]...)
		case op != 0: // insert the next op bytes
			n := int(op)
			if n > len(ops) || uint64(len(out)+n) > size {
				return nil, fmt.Errorf("%w: truncated insert", errBadDelta)
			}
			out = append(out, ops[:n]...)
			ops = ops[n:]
		default:
			return nil, fmt.Errorf("%w: reserved opcode 0", errBadDelta)
		}
	}
	if uint64(len(out)) != size {
		return nil, fmt.Errorf("%w: made %d bytes, not %d", errBadDelta, len(out), size)
	}
	return out, nil
}

// copyArg reads a copy's offset (bits 0-3 of op) or size (bits 4-6): one
// byte, lowest first, for each bit set, from ops; it returns the rest.
func copyArg(op byte, first uint, bits int, ops []byte) (uint64, []byte, error) {
	var v uint64
	for i := range bits {
		if op&(1<<(first+uint(i))) != 0 {
			if len(ops) == 0 {
				return 0, nil, fmt.Errorf("%w: truncated copy", errBadDelta)
			}
			v |= uint64(ops[0]) << (8 * i)
			ops = ops[1:]
		}
	}
	return v, ops, nil
}
