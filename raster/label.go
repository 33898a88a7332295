package raster

import "fmt"

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
	if width < 0 || height < 0 || len(mask) != width*height {
		return nil, 0, fmt.Errorf("raster: mask has %d values, want %dx%d", len(mask), width, height)
	}
	if conn != Connect4 && conn != Connect8 {
		return nil, 0, fmt.Errorf("raster: connectivity must be 4 or 8, got %d", conn)
	}
	labels := make([]int32, len(mask))
	// parent is a union-find forest over provisional labels (index 0
	// unused); a root is always the smallest label of its set.
	parent := []int32{0}
	find := func(a int32) int32 {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	union := func(a, b int32) int32 {
		ra, rb := find(a), find(b)
		if ra == rb {
			return ra
		}
		if ra < rb {
			parent[rb] = ra
			return ra
		}
		parent[ra] = rb
		return rb
	}
	for r := 0; r < height; r++ {
		row := r * width
		for c := 0; c < width; c++ {
			i := row + c
			if !mask[i] {
				continue
			}
			var cur int32
			join := func(j int) {
				l := labels[j]
				if l == 0 {
					return
				}
				if cur == 0 {
					cur = find(l)
					return
				}
				cur = union(cur, l)
			}
			if c > 0 {
				join(i - 1)
			}
			if r > 0 {
				up := i - width
				join(up)
				if conn == Connect8 {
					if c > 0 {
						join(up - 1)
					}
					if c+1 < width {
						join(up + 1)
					}
				}
			}
			if cur == 0 {
				cur = int32(len(parent))
				parent = append(parent, cur)
			}
			labels[i] = cur
		}
	}
	// Final numbering: a set's root is its smallest provisional label,
	// which was created at the set's first pixel in raster order, so
	// numbering roots in increasing order numbers components by first
	// pixel.
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
	for i, l := range labels {
		if l != 0 {
			labels[i] = final[l]
		}
	}
	return labels, int(n), nil
}
