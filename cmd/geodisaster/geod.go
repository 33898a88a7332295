package main

import (
	"context"

	"github.com/geodisaster/engine/geodesy"
)

func init() {
	register(command{
		name:    "geod",
		summary: "WGS84 geodesics like GeographicLib's GeodSolve: 'geod inverse' and 'geod direct' on stdin lines",
		run:     runGeod,
	})
}

// runGeod implements "geodisaster geod inverse" (lines "lat1 lon1 lat2
// lon2" in, "azi1 azi2 s12" out, as GeodSolve -i) and "geodisaster geod
// direct" (lines "lat1 lon1 azi1 s12" in, "lat2 lon2 azi2" out, as
// GeodSolve). Angles are degrees, distances metres, azi2 is the forward
// azimuth at the second point; output is at full precision.
func runGeod(ctx context.Context, cio cmdIO, args []string) error {
	fs := newFlagSet("geod", "inverse|direct < lines", cio.stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("geod: want one mode, inverse or direct")
	}
	g := geodesy.NewGeodesic(geodesy.WGS84())
	switch fs.Arg(0) {
	case "inverse", "-i":
		return forEachLine(ctx, cio, "geod inverse", 4, func(v []float64) (string, error) {
			s12, azi1, azi2, err := g.Inverse(v[0], v[1], v[2], v[3])
			if err != nil {
				return "", err
			}
			return formatFloat(azi1) + " " + formatFloat(azi2) + " " + formatFloat(s12), nil
		})
	case "direct":
		return forEachLine(ctx, cio, "geod direct", 4, func(v []float64) (string, error) {
			lat2, lon2, azi2, err := g.Direct(v[0], v[1], v[2], v[3])
			if err != nil {
				return "", err
			}
			return formatFloat(lat2) + " " + formatFloat(lon2) + " " + formatFloat(azi2), nil
		})
	}
	return usagef("geod: unknown mode %q (want inverse or direct)", fs.Arg(0))
}
