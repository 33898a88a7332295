package regions

import "encoding/binary"

// equalBits sets bit x of dst (64 pixels per word) when row[x] == value
// and clears the bits past len(row).
func equalBits(dst []uint64, row []uint8, value uint8) {
	lanes := uint64(value) * 0x0101010101010101
	clear(dst)
	x := 0
	for ; x+8 <= len(row); x += 8 {
		d := binary.LittleEndian.Uint64(row[x:]) ^ lanes
		// High bit of each byte set when the byte is zero (no carries
		// leave a byte: each is at most 0x7f+0x7f), then gathered into
		// eight bits in pixel order.
		z := ^((d&0x7f7f7f7f7f7f7f7f + 0x7f7f7f7f7f7f7f7f) | d) & 0x8080808080808080
		dst[x>>6] |= (z >> 7 * 0x0102040810204080 >> 56) << (x & 63)
	}
	for ; x < len(row); x++ {
		if row[x] == value {
			dst[x>>6] |= 1 << (x & 63)
		}
	}
}

// hasZeroByte reports whether any byte of x is zero.
func hasZeroByte(x uint64) bool {
	return (x-0x0101010101010101)&^x&0x8080808080808080 != 0
}
