package projstring

import (
	"math"
	"testing"
)

// TestParseProjNumber reads PROJ's number forms: decimals and the
// sexagesimal DdM'S" with a hemisphere letter or a sign.
func TestParseProjNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
	}{
		{"12.5", 12.5}, {"-3", -3}, {"1e-3", 0.001},
		{"2d20'14.025\"E", 2 + 20.0/60 + 14.025/3600}, {"74d04'51.3\"W", -(74 + 4.0/60 + 51.3/3600)},
		{"17d40'W", -(17 + 40.0/60)}, {"-9d30", -9.5}, {"45d", 45}, {"10dS", -10},
	} {
		got, err := parseProjNumber(c.in)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%q: %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "abc", "NaN", "Inf", "1d2x'", "12dd"} {
		if v, err := parseProjNumber(bad); err == nil {
			t.Errorf("%q: %v, no error", bad, v)
		}
	}
}
