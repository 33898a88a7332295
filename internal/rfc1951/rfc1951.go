// Package rfc1951 holds the fixed tables of the DEFLATE format (RFC 1951)
// that both a decoder and an encoder need, so that they are written once.
package rfc1951

// LengthBase and LengthExtra are the base match length and the number of
// extra bits of length symbols 257..285 (section 3.2.5).
var (
	LengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	LengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
)

// DistBase and DistExtra are the base distance and the number of extra
// bits of distance symbols 0..29 (section 3.2.5).
var (
	DistBase  = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	DistExtra = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// CodeLengthOrder is the order in which a dynamic block's header gives the
// code lengths of the code-length alphabet (section 3.2.7).
var CodeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
