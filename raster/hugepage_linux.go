package raster

import (
	"syscall"
	"unsafe"
)

// hugePageMin is the smallest allocation worth a transparent-huge-page hint.
const hugePageMin = 8 << 20

// adviseHugePages asks Linux to back the 2 MiB-aligned interior of a fresh,
// not yet touched buffer with transparent huge pages (when THP is in
// "madvise" mode, as on Debian). First-touch page faults of a large band
// then cost a fraction of their 4 KiB-page price; NumPy does the same for
// its large arrays. It is only a hint: errors are ignored.
func adviseHugePages(b []byte) {
	if len(b) < hugePageMin {
		return
	}
	const huge = 2 << 20
	p := uintptr(unsafe.Pointer(&b[0]))
	off := int((huge - p%huge) % huge)
	n := (len(b) - off) / huge * huge
	if n <= 0 {
		return
	}
	_ = syscall.Madvise(b[off:off+n], 14) // MADV_HUGEPAGE
}
