package raster

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// Connectivity selects which neighbours join pixels into one component.
type Connectivity int

// The two raster connectivities.
const (
	// Connect4 joins pixels that share an edge (scipy.ndimage's default
	// cross-shaped structure).
	Connect4 Connectivity = 4
	// Connect8 joins pixels that share an edge or a corner
	// (structure np.ones((3, 3))).
	Connect8 Connectivity = 8
)

// Label labels the connected components of the true pixels of a row-major
// width x height mask, like scipy.ndimage.label(mask, structure) with the
// given connectivity: background pixels get 0 and components get 1..n,
// numbered in the raster order of their first pixel (scipy's numbering).
// It returns the labels and n.
func Label(mask []bool, width, height int, conn Connectivity) ([]int32, int, error) {
	return labelEqual(mask, true, width, height, conn)
}

// LabelValue is Label over the pixels of a row-major uint8 mask that equal
// value (e.g. the flood class of a 0/1/255 prediction), without building a
// boolean mask.
func LabelValue(mask []uint8, value uint8, width, height int, conn Connectivity) ([]int32, int, error) {
	return labelEqual(mask, value, width, height, conn)
}

// A Grouping lists the pixels of each component of a labelling, grouped by
// label and in raster order within a component: the pixels of component k
// (1-based) are (Rows[i], Cols[i]) for Start[k-1] <= i < Start[k].
type Grouping struct {
	Start      []int32
	Rows, Cols []int32
}

// Pixels returns the number of pixels of component k (1-based).
func (g *Grouping) Pixels(k int) int { return int(g.Start[k] - g.Start[k-1]) }

// LabelValueGrouped is LabelValue that also fills g with every
// component's pixels, reusing g's slices when they are large enough. With
// 8-connectivity the grouping costs no pass of its own (RunLabels.Fill
// writes it with the labels); with 4-connectivity it is a scan of the
// labels.
func LabelValueGrouped(mask []uint8, value uint8, width, height int, conn Connectivity, g *Grouping) ([]int32, int, error) {
	if g == nil {
		return nil, 0, fmt.Errorf("raster: nil grouping")
	}
	if conn == Connect8 {
		rl, err := LabelRuns(mask, value, width, height)
		if err != nil {
			return nil, 0, err
		}
		return rl.Fill(g), rl.Count(), nil
	}
	labels, n, err := labelEqual(mask, value, width, height, conn)
	if err != nil {
		return nil, 0, err
	}
	groupLabels(labels, width, n, g)
	return labels, n, nil
}

// pixelRun is a run of equal pixels [a, b) of one row and its label
// (provisional while the runs are joined, final afterwards).
type pixelRun struct{ a, b, label int32 }

// RunLabels is the 8-connected labelling of the pixels of a row-major
// uint8 mask equal to a value (LabelValue with Connect8), held as runs of
// pixels: the components and their sizes are known as soon as LabelRuns
// returns, and so is the label of any pixel; the label array and the
// grouping of pixels by component are written by Fill. Its methods may be
// called from several goroutines at once.
type RunLabels struct {
	width, height int
	runs          []pixelRun // in raster order, with final labels
	rowStart      []int      // runs of row y: runs[rowStart[y]:rowStart[y+1]]
	start         []int32    // start[k] - start[k-1]: pixels of component k
}

// LabelRuns labels the 8-connected components of the pixels of mask
// (row-major, width x height) equal to value, numbered as scipy numbers
// them. Each row's runs of value are found 64 pixels at a time and joined
// to the runs of the row above that they touch (overlap or meet at a
// corner) with labelEqual's union-find: a set's root is its first run in
// raster order, so roots ranked in order are scipy's labels.
func LabelRuns(mask []uint8, value uint8, width, height int) (*RunLabels, error) {
	if width < 0 || height < 0 || len(mask) != width*height {
		return nil, fmt.Errorf("raster: mask has %d values, want %dx%d", len(mask), width, height)
	}
	rl := &RunLabels{width: width, height: height, rowStart: make([]int, height+1)}
	rowBits := make([]uint64, (width+63)/64)
	var runs []pixelRun
	parent := make([]int32, 1, 1024)
	count := make([]int32, 1, 1024) // pixels per provisional label
	find := func(a int32) int32 {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	for y := 0; y < height; y++ {
		equalBits(rowBits, mask[y*width:(y+1)*width], value)
		rl.rowStart[y] = len(runs)
		var prev []pixelRun
		if y > 0 {
			prev = runs[rl.rowStart[y-1]:rl.rowStart[y]]
		}
		i := 0
		for x := 0; x < width; {
			// The next run: its first set bit, then its first clear one
			// (bits past the row's end are clear).
			wd := rowBits[x>>6] >> (x & 63)
			if wd == 0 {
				x = (x>>6 + 1) << 6
				continue
			}
			x += bits.TrailingZeros64(wd)
			a := x
			for {
				z := ^rowBits[x>>6] >> (x & 63)
				if z != 0 {
					x += bits.TrailingZeros64(z)
					break
				}
				x = (x>>6 + 1) << 6
				if x >= width {
					break
				}
			}
			b := min(x, width)
			// Runs above that end before a-1 touch no later run either.
			for i < len(prev) && int(prev[i].b) < a {
				i++
			}
			lab := int32(0)
			for k := i; k < len(prev) && int(prev[k].a) <= b; k++ {
				l := prev[k].label
				if lab == 0 {
					lab = find(l)
					continue
				}
				ra, rb := lab, find(l)
				if ra < rb {
					parent[rb] = ra
				} else if rb < ra {
					parent[ra] = rb
					lab = rb
				}
			}
			if lab == 0 {
				lab = int32(len(parent))
				parent = append(parent, lab)
				count = append(count, 0)
			}
			count[lab] += int32(b - a)
			runs = append(runs, pixelRun{int32(a), int32(b), lab})
		}
	}
	rl.rowStart[height] = len(runs)
	final, n := rootRanks(parent, find)
	for i := range runs {
		runs[i].label = final[runs[i].label]
	}
	rl.start = make([]int32, n+1)
	for l := 1; l < len(final); l++ {
		rl.start[final[l]] += count[l]
	}
	for k := 1; k <= int(n); k++ {
		rl.start[k] += rl.start[k-1]
	}
	rl.runs = runs
	return rl, nil
}

// Count returns the number of components.
func (rl *RunLabels) Count() int { return len(rl.start) - 1 }

// Pixels returns the number of pixels of component k (1-based).
func (rl *RunLabels) Pixels(k int) int { return int(rl.start[k] - rl.start[k-1]) }

// At returns the label of pixel i (row-major), 0 for a pixel not equal to
// the value or outside the grid.
func (rl *RunLabels) At(i int) int32 {
	if i < 0 || i >= rl.width*rl.height {
		return 0
	}
	y, x := i/rl.width, int32(i%rl.width)
	runs := rl.runs[rl.rowStart[y]:rl.rowStart[y+1]]
	// The first run ending after x.
	lo, hi := 0, len(runs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if runs[m].b <= x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(runs) && runs[lo].a <= x {
		return runs[lo].label
	}
	return 0
}

// Fill returns the label array (0 outside the components) and fills g
// with every component's pixels (reusing g's slices when they are large
// enough), a run at a time.
func (rl *RunLabels) Fill(g *Grouping) []int32 {
	width, n := rl.width, rl.Count()
	labels := make([]int32, width*rl.height)
	start := grow32(g.Start, n+1)
	copy(start, rl.start)
	pos := make([]int32, n+1)
	copy(pos[1:], start[:n])
	rows, cols := grow32(g.Rows, int(start[n])), grow32(g.Cols, int(start[n]))
	for y := 0; y < rl.height; y++ {
		lab := labels[y*width : (y+1)*width]
		for _, r := range rl.runs[rl.rowStart[y]:rl.rowStart[y+1]] {
			f := r.label
			p := pos[f]
			for x := r.a; x < r.b; x++ {
				lab[x] = f
				rows[p], cols[p] = int32(y), x
				p++
			}
			pos[f] = p
		}
	}
	g.Start, g.Rows, g.Cols = start, rows, cols
	return labels
}

// labelEqual is a two-pass union-find labelling over flat arrays. The
// provisional label of a pixel comes from its already-scanned neighbours
// (west, north-west, north, north-east); with 8-connectivity a labelled
// north neighbour is already joined to the other three (they touch it), so
// only the remaining cases need unions. A set's root is always its
// smallest provisional label, created at the set's first pixel in raster
// order, so numbering roots in increasing order gives scipy's numbering.
func labelEqual[T comparable](mask []T, on T, width, height int, conn Connectivity) ([]int32, int, error) {
	if width < 0 || height < 0 || len(mask) != width*height {
		return nil, 0, fmt.Errorf("raster: mask has %d values, want %dx%d", len(mask), width, height)
	}
	if conn != Connect4 && conn != Connect8 {
		return nil, 0, fmt.Errorf("raster: connectivity must be 4 or 8, got %d", conn)
	}
	labels := make([]int32, len(mask))
	if len(mask) == 0 {
		return labels, 0, nil
	}
	// parent[0] is unused; parent[l] <= l for every provisional label l.
	parent := make([]int32, 1, 1024)
	find := func(a int32) int32 {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	// union merges the sets of a and b (roots or not) and returns the root.
	union := func(a, b int32) int32 {
		ra, rb := find(a), find(b)
		if ra < rb {
			parent[rb] = ra
			return ra
		}
		parent[ra] = rb
		return rb
	}
	eight := conn == Connect8
	// A byte mask is scanned eight pixels at a time while none of them
	// is on (their labels stay 0).
	bytesMask, isBytes := any(mask).([]uint8)
	var onBytes uint64
	if isBytes {
		onBytes = uint64(any(on).(uint8)) * 0x0101010101010101
	}
	for r := 0; r < height; r++ {
		row := mask[r*width : (r+1)*width]
		lab := labels[r*width : (r+1)*width]
		var up []int32
		if r > 0 {
			up = labels[(r-1)*width : r*width]
		}
		var rowBytes []uint8
		if isBytes {
			rowBytes = bytesMask[r*width : (r+1)*width]
		}
		for c := 0; c < len(row); c++ {
			if c+8 <= len(rowBytes) && !hasZeroByte(binary.LittleEndian.Uint64(rowBytes[c:])^onBytes) {
				c += 7
				continue
			}
			if row[c] != on {
				continue
			}
			var cur, w int32
			if c > 0 {
				w = lab[c-1]
			}
			if up != nil {
				n := up[c]
				if eight {
					if n != 0 {
						// West, north-west and north-east all touch north.
						lab[c] = n
						continue
					}
					if c > 0 && w == 0 {
						w = up[c-1]
					}
					var ne int32
					if c+1 < width {
						ne = up[c+1]
					}
					switch {
					case w != 0 && ne != 0:
						cur = union(w, ne)
					case w != 0:
						cur = w
					default:
						cur = ne
					}
				} else {
					switch {
					case w != 0 && n != 0:
						cur = union(w, n)
					case w != 0:
						cur = w
					default:
						cur = n
					}
				}
			} else {
				cur = w
			}
			if cur == 0 {
				cur = int32(len(parent))
				parent = append(parent, cur)
			}
			lab[c] = cur
		}
	}
	final, n := rootRanks(parent, find)
	for i, l := range labels {
		labels[i] = final[l] // final[0] is 0
	}
	return labels, int(n), nil
}

// rootRanks is the final numbering of a union-find of provisional labels
// whose roots are their sets' smallest labels: it returns each label's
// final label (its root's rank in label order; index 0 stays 0) and the
// number of sets.
func rootRanks(parent []int32, find func(int32) int32) ([]int32, int32) {
	final := make([]int32, len(parent))
	n := int32(0)
	for l := int32(1); l < int32(len(parent)); l++ {
		if root := find(l); root == l {
			n++
			final[l] = n
		} else {
			final[l] = final[root]
		}
	}
	return final, n
}

// groupLabels fills g with the pixels of the n components of labels (a
// row-major labelling of rows width wide), in raster order within each
// component.
func groupLabels(labels []int32, width, n int, g *Grouping) {
	start := grow32(g.Start, n+1)
	clear(start)
	for _, l := range labels {
		start[l]++ // start[0] counts the background, dropped below
	}
	start[0] = 0
	for k := 1; k <= n; k++ {
		start[k] += start[k-1]
	}
	// pos[k] is the next free place of component k (start[k-1] at first).
	pos := make([]int32, n+1)
	copy(pos[1:], start[:n])
	rows, cols := grow32(g.Rows, int(start[n])), grow32(g.Cols, int(start[n]))
	for i, l := range labels {
		if l == 0 {
			continue
		}
		p := pos[l]
		rows[p], cols[p] = int32(i/width), int32(i%width)
		pos[l] = p + 1
	}
	g.Start, g.Rows, g.Cols = start, rows, cols
}

// grow32 returns s with length n, reallocating only when its capacity is
// short (contents unspecified).
func grow32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// hasZeroByte reports whether any byte of x is zero.
func hasZeroByte(x uint64) bool {
	return (x-0x0101010101010101)&^x&0x8080808080808080 != 0
}
