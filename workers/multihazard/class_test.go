package multihazard

import "testing"

// TestClassSchemesAreContiguousAndUnique: each fixed B-shape scheme's bins
// ascend and tile their range with no gap or overlap (a half-open bin
// upper edge is the next bin's lower edge), labels are distinct, each
// hazard is a known one and each (hazard, scale) is declared once.
func TestClassSchemesAreContiguousAndUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range classSchemes {
		key := s.Hazard + "/" + s.Scale
		if seen[key] {
			t.Errorf("%s declared twice", key)
		}
		seen[key] = true
		if _, ok := lookupHazard(s.Hazard); !ok {
			t.Errorf("%s: unknown hazard", key)
		}
		if (s.Bins == nil) == (s.Normalization == "") {
			t.Errorf("%s: needs exactly one of fixed bins or a normalization file", key)
		}
		labels := map[string]bool{}
		for i, b := range s.Bins {
			if !(b.Lower < b.Upper) {
				t.Errorf("%s bin %s: [%v, %v) is empty", key, b.Label, b.Lower, b.Upper)
			}
			if i > 0 && s.Bins[i-1].Upper != b.Lower {
				t.Errorf("%s: gap or overlap between %s and %s", key, s.Bins[i-1].Label, b.Label)
			}
			if labels[b.Label] {
				t.Errorf("%s: label %s twice", key, b.Label)
			}
			labels[b.Label] = true
		}
	}
}
