package multihazard

import (
	"strings"
	"testing"
)

func TestPopMeanStdMatchesNumPy(t *testing.T) {
	mu, sd := popMeanStd([]float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6})
	if mu != 0.35000000000000003 || sd != 0.1707825127659933 {
		t.Errorf("mean, std = %v, %v; NumPy gives 0.35000000000000003, 0.1707825127659933", mu, sd)
	}
}

func TestSymmetricPctDelta(t *testing.T) {
	if got := SymmetricPctDelta(0, 0); got != 0 {
		t.Errorf("two zero areas: %v, want 0", got)
	}
	if got := SymmetricPctDelta(10, 0); got != 200 {
		t.Errorf("one zero area: %v, want 200", got)
	}
	if got := SymmetricPctDelta(90, 110); got != 20 {
		t.Errorf("90 vs 110: %v, want 20", got)
	}
	if SymmetricPctDelta(3, 7) != SymmetricPctDelta(7, 3) {
		t.Error("not symmetric")
	}
	if got := Median3([]float64{30, 10, 20}); got != 20 {
		t.Errorf("median3 = %v", got)
	}
}

func TestBinarySupport(t *testing.T) {
	T, F := true, false
	all := []bool{T, T, T, T}
	// Identical non-constant masks: IoU 1, agreement 1, kappa 1.
	s, err := BinarySupport([]bool{T, F, T, F}, all, []bool{T, F, T, F}, all)
	if err != nil || s.IoU != 1 || s.Agreement != 1 || s.Kappa == nil || *s.Kappa != 1 {
		t.Errorf("identical masks: %+v %v", s, err)
	}
	// Two empty masks: IoU 1 by the set rule, kappa undefined (nil).
	s, err = BinarySupport([]bool{F, F, F, F}, all, []bool{F, F, F, F}, all)
	if err != nil || s.IoU != 1 || s.Agreement != 1 || s.Kappa != nil {
		t.Errorf("empty masks: %+v %v", s, err)
	}
	// Only common valid cells count: the disagreeing cell is invalid in b.
	s, err = BinarySupport([]bool{T, T, F, F}, all, []bool{T, F, F, T}, []bool{T, F, T, F})
	if err != nil || s.IoU != 1 || s.Agreement != 1 {
		t.Errorf("common valid cells: %+v %v", s, err)
	}
	// Disjoint: IoU 0, kappa -1.
	s, _ = BinarySupport([]bool{T, T, F, F}, all, []bool{F, F, T, T}, all)
	if s.IoU != 0 || s.Agreement != 0 || s.Kappa == nil || *s.Kappa != -1 {
		t.Errorf("disjoint: %+v", s)
	}
	if _, err := BinarySupport([]bool{T}, []bool{T}, []bool{T}, []bool{F}); err == nil || !strings.Contains(err.Error(), "empty common valid") {
		t.Errorf("no common valid cell: err = %v", err)
	}
}

func TestVerdictBoundariesInclusive(t *testing.T) {
	if areaVerdict(15.317, 15.317) != SourcesAgree || areaVerdict(15.317, 15.316) != SourcesDisagree {
		t.Error("the median-difference limit is not inclusive")
	}
	if iouVerdict(0.3, 0.3) != SourcesAgree || iouVerdict(0.299999, 0.3) != SourcesDisagree {
		t.Error("the minimum IoU is not inclusive")
	}
	for z, want := range map[float64]string{-0.5: StateTypical, 0.5: StateTypical, -0.5000001: StateBelow, 0.5000001: StateAbove, 0: StateTypical} {
		if got := intensityState(z); got != want {
			t.Errorf("intensityState(%v) = %s, want %s", z, got, want)
		}
	}
}
