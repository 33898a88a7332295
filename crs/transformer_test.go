package crs

import (
	"context"
	"errors"
	"math"
	"testing"
)

func TestTransformSlices(t *testing.T) {
	p := projectedEPSG(t, 31467)
	tr, err := NewTransformer(p.Base, p)
	if err != nil {
		t.Fatal(err)
	}
	lon, lat := benchGrid(100000, 8, 48, 2, 2)
	lat[77] = 95 // invalid
	lon[50000] = math.NaN()
	for _, workers := range []int{1, 2, 7} {
		x, y := append([]float64(nil), lon...), append([]float64(nil), lat...)
		err := tr.TransformSlices(context.Background(), x, y, workers)
		var pe *PointsError
		if !errors.As(err, &pe) || pe.Failed != 2 || pe.First != 77 || !errors.Is(err, ErrInvalidCoordinate) {
			t.Fatalf("workers %d: %v", workers, err)
		}
		for i := range x {
			wx, wy, werr := Transform(p.Base, p, lon[i], lat[i])
			if werr != nil {
				if !math.IsNaN(x[i]) || !math.IsNaN(y[i]) {
					t.Fatalf("point %d failed but is (%v, %v)", i, x[i], y[i])
				}
				continue
			}
			if x[i] != wx || y[i] != wy {
				t.Fatalf("workers %d point %d: (%v, %v), Transform (%v, %v)", workers, i, x[i], y[i], wx, wy)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := tr.TransformSlices(ctx, make([]float64, 10), make([]float64, 10), 2); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := tr.TransformSlices(context.Background(), make([]float64, 3), make([]float64, 2), 1); err == nil {
		t.Error("length mismatch accepted")
	}
}
