package crs

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/geodisaster/engine/crs/internal/core"
	"github.com/geodisaster/engine/crs/internal/proj"
)

// nativeTool returns the path of a reference tool, skipping the test when
// it is absent locally and failing under CI=true (.ci/steps/00-native-stack.sh
// installs it there).
func nativeTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but %s is not installed (.ci/steps/00-native-stack.sh installs the native stack)", name)
	}
	t.Skipf("%s not installed", name)
	return ""
}

// pythonWithPyproj returns Debian's python3 when it can import pyproj.
func pythonWithPyproj(t testing.TB) string {
	t.Helper()
	py := "/usr/bin/python3"
	if _, err := os.Stat(py); err != nil {
		py = nativeTool(t, "python3")
	}
	if err := exec.Command(py, "-c", "import pyproj").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but %s cannot import pyproj: %v", py, err)
		}
		t.Skipf("pyproj not available: %v", err)
	}
	return py
}

type sweepCRS struct {
	Code   int          `json:"code"`
	Method int          `json:"method"`
	Base   int          `json:"base"`
	Error  string       `json:"error"`
	Points [][6]float64 `json:"points"`
	Failed int          `json:"failed"`
}

// runSweep runs conformance/crs/sweep.py with args and decodes its lines.
func runSweep(t testing.TB, args ...string) []sweepCRS {
	t.Helper()
	py := pythonWithPyproj(t)
	cmd := exec.Command(py, append([]string{"../conformance/crs/sweep.py"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sweep.py: %v\n%s", err, stderr.String())
	}
	return DecodeJSONLines[sweepCRS](t, out, 1)
}

// authority converts between authority axis order and Transform's x, y.
func authoritySwapped(c CRS) bool { return AuthorityOrderSwapped(c) }

// checkSweepCRS compares one CRS with PROJ; it returns the worst forward
// error (metres), the worst inverse error (degrees) and a failure text.
func checkSweepCRS(s sweepCRS) (fwdErr, invErr float64, failure string) {
	c, err := FromEPSG(s.Code)
	if err != nil {
		return 0, 0, err.Error()
	}
	p := c.(*core.ProjectedCRS)
	base := p.Base
	baseSwap := authoritySwapped(base)
	projSwap := authoritySwapped(p)
	deg := base.Angular.Radians / proj.DegToRad
	for _, pt := range s.Points {
		bx, by := swapIf(baseSwap, pt[0], pt[1])
		x, y, err := Transform(base, p, bx, by)
		if err != nil {
			return fwdErr, invErr, fmt.Sprintf("forward (%v, %v): %v", pt[0], pt[1], err)
		}
		x, y = swapIf(projSwap, x, y)
		d := math.Hypot(x-pt[2], y-pt[3]) * p.Linear.Metres
		fwdErr = math.Max(fwdErr, d)
		px, py := swapIf(projSwap, pt[2], pt[3])
		lon, lat, err := Transform(p, base, px, py)
		if err != nil {
			return fwdErr, invErr, fmt.Sprintf("inverse (%v, %v): %v", pt[2], pt[3], err)
		}
		lon, lat = swapIf(baseSwap, lon, lat)
		// lon/lat now in authority order as pt[4], pt[5].
		e1 := math.Abs(lon - pt[4])
		e2 := math.Abs(lat - pt[5])
		if baseSwap {
			e2 = math.Abs(proj.Wrap180((lat-pt[5])*deg)) / deg
		} else {
			e1 = math.Abs(proj.Wrap180((lon-pt[4])*deg)) / deg
		}
		invErr = math.Max(invErr, math.Max(e1, e2)*deg)
	}
	if fwdErr > 1e-3 {
		failure = fmt.Sprintf("forward %.3g m", fwdErr)
	}
	if invErr > 1e-9 {
		failure += fmt.Sprintf(" inverse %.3g deg", invErr)
	}
	return fwdErr, invErr, failure
}

// swapIf returns (b, a) when swap is set, else (a, b): a point between
// authority axis order and the always_xy order Transform takes.
func swapIf(swap bool, a, b float64) (float64, float64) {
	if swap {
		return b, a
	}
	return a, b
}

// sweepReport compares every CRS of a sweep and summarises per method.
func sweepReport(t *testing.T, res []sweepCRS) {
	type stat struct {
		name               string
		total, ok, noProj  int
		worstFwd, worstInv float64
		failures           []string
	}
	r := mustEPSG()
	stats := map[int]*stat{}
	var convertible, passed int
	for _, s := range res {
		st := stats[s.Method]
		if st == nil {
			st = &stat{name: r.Methods[s.Method]}
			stats[s.Method] = st
		}
		if s.Error != "" || len(s.Points) == 0 {
			st.noProj++
			continue
		}
		st.total++
		convertible++
		f, i, failure := checkSweepCRS(s)
		st.worstFwd = math.Max(st.worstFwd, f)
		st.worstInv = math.Max(st.worstInv, i)
		if failure == "" {
			st.ok++
			passed++
		} else {
			st.failures = append(st.failures, fmt.Sprintf("%d (%s)", s.Code, strings.TrimSpace(failure)))
		}
	}
	methods := make([]int, 0, len(stats))
	for m := range stats {
		methods = append(methods, m)
	}
	sort.Slice(methods, func(i, j int) bool {
		a, b := stats[methods[i]], stats[methods[j]]
		if a.total+a.noProj != b.total+b.noProj {
			return a.total+a.noProj > b.total+b.noProj
		}
		return methods[i] < methods[j]
	})
	var sb strings.Builder
	fmt.Fprintf(&sb, "%-6s %-45s %6s %6s %8s %10s %10s\n", "method", "name", "codes", "pass", "no PROJ", "fwd m", "inv deg")
	for _, m := range methods {
		st := stats[m]
		fmt.Fprintf(&sb, "%-6d %-45s %6d %6d %8d %10.2g %10.2g\n", m, st.name, st.total, st.ok, st.noProj, st.worstFwd, st.worstInv)
		if len(st.failures) > 0 {
			n := len(st.failures)
			show := st.failures
			if n > 12 {
				show = show[:12]
			}
			fmt.Fprintf(&sb, "         failing: %s", strings.Join(show, ", "))
			if n > 12 {
				fmt.Fprintf(&sb, " ... (%d in all)", n)
			}
			sb.WriteString("\n")
		}
	}
	share := 0.0
	if convertible > 0 {
		share = float64(passed) / float64(convertible)
	}
	fmt.Fprintf(&sb, "%d of %d CRSs PROJ converts pass (%.2f%%)\n", passed, convertible, 100*share)
	t.Log("\n" + sb.String())
	if out := os.Getenv("GEODISASTER_CRS_SWEEP_REPORT"); out != "" {
		if err := os.WriteFile(out, []byte(sb.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	if share < 0.98 {
		t.Errorf("only %.2f%% of the CRSs PROJ converts agree within 1 mm / 1e-9 degrees", 100*share)
	}
}

// TestAgainstPROJ compares every supported method with PROJ through
// pyproj on a seeded sample of EPSG projected CRSs, with at least two
// codes of every method (points over each
// CRS's area of use, forward from the base geographic CRS within 1 mm,
// back within 1e-9 degrees). GEODISASTER_CRS_SWEEP=all sweeps every
// code (about a minute of pyproj); =N samples N codes.
func TestAgainstPROJ(t *testing.T) {
	n := "250"
	points := "6"
	if v := os.Getenv("GEODISASTER_CRS_SWEEP"); v != "" {
		n, points = v, "12"
		if v == "all" {
			n = "0"
		}
	}
	if _, err := strconv.Atoi(n); err != nil {
		t.Fatalf("GEODISASTER_CRS_SWEEP=%q: want all or a number", n)
	}
	args := []string{"--sample", n, "--per-method", "2", "--seed", "27", "--points", points}
	if codes := os.Getenv("GEODISASTER_CRS_CODES"); codes != "" {
		args = []string{"--codes", codes, "--points", points}
	}
	sweepReport(t, runSweep(t, args...))
}
