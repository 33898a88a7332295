package regions

import (
	"encoding/binary"
	"fmt"
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
