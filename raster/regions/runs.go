package regions

import (
	"fmt"
	"math/bits"
)

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
	start := resize(g.Start, n+1)
	copy(start, rl.start)
	pos := make([]int32, n+1)
	copy(pos[1:], start[:n])
	rows, cols := resize(g.Rows, int(start[n])), resize(g.Cols, int(start[n]))
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

// A Grouping lists the pixels of each component of a labelling, grouped by
// label and in raster order within a component: the pixels of component k
// (1-based) are (Rows[i], Cols[i]) for Start[k-1] <= i < Start[k].
type Grouping struct {
	Start      []int32
	Rows, Cols []int32
}

// Pixels returns the number of pixels of component k (1-based).
func (g *Grouping) Pixels(k int) int { return int(g.Start[k] - g.Start[k-1]) }
