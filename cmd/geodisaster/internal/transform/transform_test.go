package transform

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs"
	kit "github.com/geodisaster/engine/internal/cli"
	"github.com/geodisaster/engine/internal/cli/cmdtest"
)

// runCs2cs runs cs2cs itself with args on input.
func runCs2cs(t *testing.T, tool, input string, args ...string) string {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Stdin = strings.NewReader(input)
	cmd.Env = append(os.Environ(), "PROJ_NETWORK=OFF")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cs2cs %q: %v", args, err)
	}
	return string(out)
}

// parseCs2csNumber reads a number or a DMS angle of cs2cs's output.
func parseCs2csNumber(s string) (float64, bool) {
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		return v, true
	}
	v, err := parseAngle(s)
	return v, err == nil
}

// sameCs2csLine compares output lines: equal text, or numbers equal within
// half a unit of the last printed decimal (cs2cs and the engine may round
// a tie differently) plus tol.
func sameCs2csLine(ours, theirs string, tol float64) bool {
	if ours == theirs {
		return true
	}
	a, b := strings.Fields(ours), strings.Fields(theirs)
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] == b[i] {
			continue
		}
		x, ok1 := parseCs2csNumber(a[i])
		y, ok2 := parseCs2csNumber(b[i])
		if !ok1 || !ok2 {
			return false
		}
		unit := lastDigitUnit(b[i])
		if math.Abs(x-y) > unit+tol {
			return false
		}
	}
	return true
}

// lastDigitUnit is the value of one unit in the last printed decimal of
// s (0.001" for a DMS angle, in degrees).
func lastDigitUnit(s string) float64 {
	if strings.ContainsAny(s, "d'\"") {
		return 0.001 / 3600
	}
	j := strings.IndexByte(s, '.')
	if j < 0 {
		return 1
	}
	n := 0
	for k := j + 1; k < len(s) && s[k] >= '0' && s[k] <= '9'; k++ {
		n++
	}
	return math.Pow(10, -float64(n))
}

// checkAgainstCs2cs runs the engine and cs2cs on the same input and args.
func checkAgainstCs2cs(t *testing.T, tool, input string, tol float64, args ...string) {
	t.Helper()
	want := runCs2cs(t, tool, input, args...)
	code, got, stderr := cmdtest.Run(t, Commands(), input, append([]string{"transform"}, args...)...)
	if code != kit.ExitOK {
		t.Errorf("transform %q: exit %d: %s", args, code, stderr)
		return
	}
	g, w := strings.Split(strings.TrimRight(got, "\n"), "\n"), strings.Split(strings.TrimRight(want, "\n"), "\n")
	if len(g) != len(w) {
		t.Errorf("transform %q: %d lines, cs2cs %d:\n%s\ncs2cs:\n%s", args, len(g), len(w), got, want)
		return
	}
	for i := range g {
		if !sameCs2csLine(g[i], w[i], tol) {
			t.Errorf("transform %q line %d: %q, cs2cs %q", args, i+1, g[i], w[i])
		}
	}
}

// methodSamples picks, for every projection method the engine converts,
// the first non-deprecated EPSG CRS of it, with its base geographic CRS
// and the centre of its area of use.
func methodSamples(t *testing.T) []struct {
	code, base        int
	method            string
	lat, lon, dlat, d float64
} {
	var out []struct {
		code, base        int
		method            string
		lat, lon, dlat, d float64
	}
	seen := map[string]bool{}
	for _, i := range crs.List() {
		if i.Kind != "projected" || i.Deprecated || !i.Convertible || seen[i.Method] {
			continue
		}
		seen[i.Method] = true
		j, err := crs.PROJJSONFromEPSG(i.Code)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			BaseCRS struct {
				ID struct{ Code int } `json:"id"`
			} `json:"base_crs"`
		}
		if err := json.Unmarshal(j, &doc); err != nil {
			t.Fatal(err)
		}
		w, e := i.West, i.East
		if e < w {
			e += 360
		}
		out = append(out, struct {
			code, base        int
			method            string
			lat, lon, dlat, d float64
		}{i.Code, doc.BaseCRS.ID.Code, i.Method, (i.South + i.North) / 2, math.Remainder((w+e)/2, 360), (i.North - i.South) / 4, (e - w) / 4})
	}
	return out
}

// TestTransformAgainstCs2cs runs cs2cs itself and the engine's transform
// on the same points for every kind of CRS: one EPSG CRS per supported
// projection method (from and to its base geographic CRS, in authority
// axis order, default and -d output), geographic CRSs (DMS output, grads
// and a Paris prime meridian), datum shifts through WGS 84 (Helmert
// transformations chosen per point), PROJ strings with +to, and the
// options -I, -d, -f, -r, -s, -E.
func TestTransformAgainstCs2cs(t *testing.T) {
	tool := cmdtest.NeedTool(t, "cs2cs")
	samples := methodSamples(t)
	if len(samples) < 25 {
		t.Fatalf("only %d methods sampled", len(samples))
	}
	// Every check runs cs2cs in its own process: the subtests run in
	// parallel.
	for _, s := range samples {
		src, dst := fmt.Sprintf("EPSG:%d", s.base), fmt.Sprintf("EPSG:%d", s.code)
		if s.base == 4807 || s.base == 4821 || s.base == 4901 {
			continue // bases in grads relative to Paris are checked below
		}
		t.Run(dst, func(t *testing.T) {
			t.Parallel()
			var in strings.Builder
			for _, f := range [][2]float64{{0, 0}, {0.5, 0.5}, {-0.5, 0.7}} {
				fmt.Fprintf(&in, "%.9f %.9f\n", s.lat+f[0]*s.dlat, s.lon+f[1]*s.d)
			}
			checkAgainstCs2cs(t, tool, in.String(), 0, src, dst)
			// 10 µm at 8 decimals: the engine's 1 mm bound is far looser.
			checkAgainstCs2cs(t, tool, in.String(), 1e-5, "-d", "8", src, dst)
			// And back, from cs2cs's own projected coordinates (1e-10 degrees).
			back := runCs2cs(t, tool, in.String(), "-d", "6", src, dst)
			checkAgainstCs2cs(t, tool, back, 1e-10, "-d", "9", dst, src)
		})
	}
	t.Logf("%d projection methods checked against cs2cs", len(samples))
	t.Run("geographic", func(t *testing.T) {
		t.Parallel()
		// Geographic CRSs, DMS output, a prime meridian in grads.
		checkAgainstCs2cs(t, tool, "50.5 -2.25\n-33.1234567 151.5\n45 15 12.5 rest of line\n", 0, "EPSG:4326", "EPSG:4326")
		checkAgainstCs2cs(t, tool, "50 2\n46 3\n", 0, "EPSG:4326", "EPSG:4807")
		checkAgainstCs2cs(t, tool, "55.6 2\n", 0, "-d", "10", "EPSG:4807", "EPSG:4326")
		checkAgainstCs2cs(t, tool, "55.6 2\n", 0, "-d", "4", "EPSG:4807", "EPSG:27572")
	})
	// Datum shifts through WGS 84 (no grid covers these points).
	for _, c := range []struct{ crs, pts string }{
		{"EPSG:4230", "50 5\n40 -3\n60 10\n45 10\n38 23\n56 3\n"},
		{"EPSG:4277", "52 -1\n57 -4\n"},
		{"EPSG:4312", "47.5 14\n"},
		{"EPSG:4301", "35.6 139.7\n"},
		{"EPSG:4284", "55.7 37.6\n"},
		{"EPSG:4267", "40 -100\n"},
		{"EPSG:4618", "-23 -46\n"},
		{"EPSG:4283", "-33 151\n"},
		{"EPSG:4258", "50 10\n"},
		{"EPSG:4314", "30 10\n"},
	} {
		t.Run(c.crs, func(t *testing.T) {
			t.Parallel()
			checkAgainstCs2cs(t, tool, c.pts, 0, "-d", "9", c.crs, "EPSG:4326")
			checkAgainstCs2cs(t, tool, c.pts, 0, "-d", "9", "EPSG:4326", c.crs)
		})
	}
	t.Run("options", func(t *testing.T) {
		t.Parallel()
		// Projected to projected across datums (OSGB36: EPSG's Helmert, Debian
		// has no OSTN15 grid).
		checkAgainstCs2cs(t, tool, "400000 300000\n530000 180000\n", 0, "-d", "3", "EPSG:27700", "EPSG:32630")
		// PROJ strings (x y order) and cs2cs's options.
		checkAgainstCs2cs(t, tool, "15 45\n", 0, "+proj=longlat", "+datum=WGS84", "+to", "+proj=utm", "+zone=33", "+datum=WGS84")
		checkAgainstCs2cs(t, tool, "7.5 45.5\n", 0, "+proj=longlat", "+datum=WGS84", "+to", "+proj=aeqd", "+lat_0=45", "+lon_0=7", "+datum=WGS84")
		checkAgainstCs2cs(t, tool, "45 15\n", 0, "-I", "EPSG:32633", "EPSG:4326")
		checkAgainstCs2cs(t, tool, "45 15\n", 0, "-f", "%.4f", "EPSG:4326", "EPSG:3035")
		checkAgainstCs2cs(t, tool, "15 45\n", 0, "-r", "EPSG:4326", "EPSG:32633")
		checkAgainstCs2cs(t, tool, "45 15\n", 0, "-s", "EPSG:4326", "EPSG:32633")
		checkAgainstCs2cs(t, tool, "45 15\n", 0, "-E", "EPSG:4326", "EPSG:32633")
		checkAgainstCs2cs(t, tool, "45d30N 15d15'E\n", 0, "EPSG:4326", "EPSG:32633")
	})
}

// TestTransformXYForm keeps the original --from/--to behaviour: x y
// order whatever the authority order, shortest exact decimals, "* *" for
// a failed point and exit 5 (bad input).
func TestTransformXYForm(t *testing.T) {
	code, out, _ := cmdtest.Run(t, Commands(), "-75 40 extra\n# c\n", "transform", "--from", "EPSG:4326", "--to", "EPSG:32618")
	if code != kit.ExitOK || out != "500000 4427757.218738375 extra\n# c\n" {
		t.Errorf("exit %d out %q", code, out)
	}
	code, out, stderr := cmdtest.Run(t, Commands(), "0 91\n", "transform", "--from", "EPSG:4326", "--to", "EPSG:32618")
	if code != kit.ExitCannotRun || out != "* *\n" || !strings.Contains(stderr, "outside [-90, 90]") {
		t.Errorf("bad point: exit %d out %q err %q", code, out, stderr)
	}
	// N,E authority order does not change the x y form.
	code, out, _ = cmdtest.Run(t, Commands(), "10 50\n", "transform", "--from", "EPSG:4326", "--to", "EPSG:3035")
	x, _ := strconv.ParseFloat(strings.Fields(out)[0], 64)
	if code != kit.ExitOK || math.Abs(x-4321000) > 1 {
		t.Errorf("3035 x y: exit %d out %q", code, out)
	}
}

func TestTransformUsage(t *testing.T) {
	for _, args := range [][]string{
		{"transform", "EPSG:4326"},
		{"transform", "EPSG:4326", "EPSG:32633", "EPSG:3857"},
		{"transform", "EPSG:4326", "EPSG:99999"},
		{"transform", "-d", "x", "EPSG:4326", "EPSG:32633"},
		{"transform", "-f", "%d", "EPSG:4326", "EPSG:32633"},
		{"transform", "-d", "3", "-f", "%.3f", "EPSG:4326", "EPSG:32633"},
		{"transform", "--from", "EPSG:4326", "--to", "EPSG:32633", "-I"},
		{"transform", "--bogus", "EPSG:4326", "EPSG:32633"},
		{"transform", "--list", "EPSG:4326"},
	} {
		if code, _, _ := cmdtest.Run(t, Commands(), "", args...); code != kit.ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, kit.ExitUsage)
		}
	}
	code, out, _ := cmdtest.Run(t, Commands(), "", "transform", "--help")
	if code != kit.ExitOK || !strings.Contains(out, "examples:") || !strings.Contains(out, "2    usage error") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

func TestTransformList(t *testing.T) {
	code, out, _ := cmdtest.Run(t, Commands(), "", "transform", "--list")
	if code != kit.ExitOK {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 5500 {
		t.Errorf("%d CRSs listed", len(lines))
	}
	for _, want := range []string{
		"EPSG:32633\tprojected\tWGS 84 / UTM zone 33N\tWorld - N hemisphere - 12°E to 18°E - by country",
		"EPSG:4326\tgeographic\tWGS 84\tWorld\n",
		"EPSG:31467\tprojected\tDHDN / 3-degree Gauss-Kruger zone 3\t",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q", want)
		}
	}
	code, out, _ = cmdtest.Run(t, Commands(), "", "transform", "--list", "--json")
	var list []struct {
		Code, Name, Area string
		BBox             [4]float64
	}
	if code != kit.ExitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) < 5500 {
		t.Fatalf("--json: exit %d, %d entries", code, len(list))
	}
}

func TestTransformCLI(t *testing.T) {
	in := "15 45\n# comment\n12.5 -33 7\n"
	code, out, _ := cmdtest.Run(t, Commands(), in, "transform", "--from", "EPSG:4326", "--to", "EPSG:32633")
	want := "500000 4982950.400226552\n# comment\n266430.0369029905 -3654063.334933304 7\n"
	if code != kit.ExitOK || out != want {
		t.Errorf("exit %d out %q want %q", code, out, want)
	}
	code, out, _ = cmdtest.Run(t, Commands(), "0 0\n", "transform", "--from", "aeqd:10,20", "--to", "EPSG:4326")
	if code != kit.ExitOK || out != "20 10\n" {
		t.Errorf("aeqd centre: exit %d out %q", code, out)
	}
	code, out, stderr := cmdtest.Run(t, Commands(), "0 95\nfoo bar\n", "transform", "--from", "EPSG:4326", "--to", "EPSG:3857")
	if code != kit.ExitCannotRun || out != "* *\n* *\n" || !strings.Contains(stderr, "2 of 2 points failed") {
		t.Errorf("bad points: exit %d out %q err %q", code, out, stderr)
	}
	if code, _, _ := cmdtest.Run(t, Commands(), "", "transform", "--from", "EPSG:1", "--to", "EPSG:4326"); code != kit.ExitUsage {
		t.Errorf("unknown EPSG exit %d", code)
	}
	if code, _, _ := cmdtest.Run(t, Commands(), "", "transform", "--to", "EPSG:4326"); code != kit.ExitUsage {
		t.Errorf("missing --from exit %d", code)
	}
}
