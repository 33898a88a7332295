package crs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/geodisaster/engine/internal/jsonl"
)

type described struct {
	Code     int             `json:"code"`
	WKT      string          `json:"wkt"`
	PROJJSON json.RawMessage `json:"projjson"`
	Error    string          `json:"error"`
}

// loadDescribed runs conformance/crs/describe.py (pyproj) with args, or
// reads GEODISASTER_CRS_DESCRIBED (a file of its output).
func loadDescribed(t *testing.T, args ...string) []described {
	t.Helper()
	var out []byte
	if f := os.Getenv("GEODISASTER_CRS_DESCRIBED"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = b
	} else {
		py := pythonWithPyproj(t)
		b, err := exec.Command(py, append([]string{"../conformance/crs/describe.py"}, args...)...).Output()
		if err != nil {
			t.Fatalf("describe.py: %v", err)
		}
		out = b
	}
	return DecodeJSONLines[described](t, out, 0)
}

// DecodeJSONLines decodes the lines of out, the output of a conformance
// script, as one T each, after skip header lines.
func DecodeJSONLines[T any](t testing.TB, out []byte, skip int) []T {
	t.Helper()
	var res []T
	err := jsonl.Scan(bytes.NewReader(out), func(n int, line []byte) error {
		if n <= skip {
			return nil
		}
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		res = append(res, v)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// firstDiff returns the first differing line of two texts.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "line " + strings.TrimSpace(x) + " | PROJ " + strings.TrimSpace(y)
		}
	}
	return ""
}

// TestWKT2MatchesPROJ requires crs.WKT2 to print PROJ's WKT2:2019 byte for
// byte for a seeded sample of EPSG CRSs (GEODISASTER_CRS_DESCRIBE=all for
// every code).
func TestWKT2MatchesPROJ(t *testing.T) {
	compareDescribed(t, func(d described) (string, error) {
		w, err := WKT2FromEPSG(d.Code)
		if err != nil || w == d.WKT {
			return "", err
		}
		return "WKT2 differs: " + firstDiff(w, d.WKT), nil
	})
}

// compareDescribed runs diff on each CRS of PROJ's described sample (or
// every code with GEODISASTER_CRS_DESCRIBE=all) that PROJ could describe:
// an error or a non-empty difference fails the test, the first 20
// differences are printed.
func compareDescribed(t *testing.T, diff func(described) (string, error)) {
	args := []string{"--sample", "300", "--seed", "27"}
	if os.Getenv("GEODISASTER_CRS_DESCRIBE") == "all" {
		args = []string{"--all"}
	}
	res := loadDescribed(t, args...)
	bad := 0
	for _, d := range res {
		if d.Error != "" {
			continue
		}
		msg, err := diff(d)
		if err != nil {
			t.Errorf("EPSG:%d: %v", d.Code, err)
			continue
		}
		if msg != "" {
			bad++
			if bad <= 20 {
				t.Errorf("EPSG:%d %s", d.Code, msg)
			}
		}
	}
	t.Logf("%d CRSs compared, %d differ", len(res), bad)
}

// jsonDiff returns the first path where two decoded JSON values differ.
func jsonDiff(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path + ": object vs " + fmt.Sprint(b)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				return path + "." + k + ": missing"
			}
		}
		for k, v := range x {
			if _, ok := y[k]; !ok {
				return path + "." + k + ": extra"
			}
			if d := jsonDiff(path+"."+k, v, y[k]); d != "" {
				return d
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path + ": array length"
		}
		for i := range x {
			if d := jsonDiff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
	default:
		if fmt.Sprint(a) != fmt.Sprint(b) {
			return fmt.Sprintf("%s: %v vs PROJ %v", path, a, b)
		}
	}
	return ""
}

// TestPROJJSONMatchesPROJ requires crs.PROJJSON to give pyproj's
// to_json_dict() for the same sample (every key and value).
func TestPROJJSONMatchesPROJ(t *testing.T) {
	compareDescribed(t, func(d described) (string, error) {
		b, err := PROJJSONFromEPSG(d.Code)
		if err != nil {
			return "", err
		}
		var ours, theirs any
		if err := json.Unmarshal(b, &ours); err != nil {
			return "", fmt.Errorf("%v\n%s", err, b)
		}
		if err := json.Unmarshal(d.PROJJSON, &theirs); err != nil {
			return "", fmt.Errorf("PROJ's PROJJSON: %v", err)
		}
		if diff := jsonDiff("", ours, theirs); diff != "" {
			return "PROJJSON differs at " + diff, nil
		}
		return "", nil
	})
}

// userDefinedDefs are PROJ strings of CRSs without an EPSG code, one or
// more per method and datum form.
var userDefinedDefs = []string{
	"+proj=tmerc +lat_0=0 +lon_0=10.5 +k=0.9999 +x_0=600000 +y_0=-100 +ellps=GRS80 +units=m +no_defs",
	"+proj=tmerc +lat_0=12 +lon_0=-3 +k=1 +x_0=0 +y_0=0 +ellps=bessel +towgs84=598.1,73.7,418.2,0.202,0.045,-2.455,6.7 +units=m",
	"+proj=utm +zone=33 +datum=NAD83",
	"+proj=lcc +lat_1=33 +lat_2=45 +lat_0=40 +lon_0=-97 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=lcc +lat_1=41 +lat_0=41 +lon_0=7 +k_0=0.9995 +x_0=400000 +y_0=250000 +ellps=intl +units=m",
	"+proj=lcc +lat_1=33 +lat_2=45 +lat_0=40 +lon_0=-97 +x_0=1000 +y_0=0 +datum=NAD27 +units=us-ft",
	"+proj=aea +lat_1=20 +lat_2=60 +lat_0=40 +lon_0=-96 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=laea +lat_0=45 +lon_0=5 +x_0=100 +y_0=200 +ellps=GRS80 +units=m",
	"+proj=laea +lat_0=-90 +lon_0=20 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=stere +lat_0=90 +lat_ts=60 +lon_0=-80 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=stere +lat_0=-90 +lon_0=30 +k=0.98 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=sterea +lat_0=40 +lon_0=25 +k=0.9999 +x_0=500000 +y_0=500000 +ellps=krass +units=m",
	"+proj=merc +lon_0=100 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=merc +lat_ts=30 +lon_0=0 +x_0=0 +y_0=0 +ellps=GRS80 +units=m",
	"+proj=omerc +lat_0=4 +lonc=115 +alpha=53.3 +gamma=53.1 +k=0.99984 +x_0=0 +y_0=0 +no_uoff +ellps=evrstSS +units=m",
	"+proj=omerc +lat_0=45 +lonc=-86 +alpha=337.25 +gamma=337.25 +k=0.9996 +x_0=2546731 +y_0=-4354009 +datum=NAD83 +units=m",
	"+proj=somerc +lat_0=46.5 +lon_0=8 +k_0=1 +x_0=600000 +y_0=200000 +ellps=bessel +units=m",
	"+proj=cass +lat_0=10.5 +lon_0=-61.3 +x_0=80000 +y_0=60000 +ellps=clrk80ign +units=m",
	"+proj=poly +lat_0=0 +lon_0=-60 +x_0=5000000 +y_0=10000000 +ellps=GRS80 +units=m",
	"+proj=eqearth +lon_0=20 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=cea +lat_ts=45 +lon_0=0 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +units=m",
	"+proj=col_urban +lat_0=4.68 +lon_0=-74.14 +x_0=92334.879 +y_0=109320.965 +h_0=2550 +ellps=GRS80 +units=m",
	"+proj=aeqd +lat_0=45 +lon_0=7 +x_0=0 +y_0=0 +datum=WGS84 +units=m",
	"+proj=aeqd +lat_0=9.5 +lon_0=138.2 +x_0=40000 +y_0=60000 +ellps=clrk66 +units=m",
	"+proj=longlat +ellps=intl +towgs84=-87,-98,-121,0,0,0,0 +no_defs",
	"+proj=longlat +ellps=GRS80 +pm=paris +no_defs",
}

// TestUserDefinedDescriptionsReadBackInPROJ requires PROJ to read the WKT2
// and PROJJSON of CRSs without an EPSG code as the CRS their PROJ string
// defines (pyproj CRS.equals).
func TestUserDefinedDescriptionsReadBackInPROJ(t *testing.T) {
	var cases []DescribedCRS
	for _, def := range userDefinedDefs {
		c, err := Parse(def)
		if err != nil {
			t.Fatalf("%s: %v", def, err)
		}
		if c.EPSG() != 0 {
			t.Fatalf("%s parsed as %v, want a user-defined CRS", def, c)
		}
		d := Describe(t, def, c, false)
		cases = append(cases, d)
		// And the engine reads its own WKT back as the same system.
		back, err := Parse(d.WKT)
		if err != nil || !sameBehaviour(c, back) {
			t.Errorf("%s: WKT reads back as %v (%v), want %s", def, back, err, c)
		}
	}
	CheckPROJReadsBack(t, cases)
}

// DescribedCRS is a CRS definition PROJ understands (a PROJ string or
// WKT) with the engine's WKT2 and PROJJSON of it.
type DescribedCRS struct {
	Def             string `json:"def"`
	WKT             string `json:"wkt"`
	PROJJSON        string `json:"projjson"`
	IgnoreAxisOrder bool   `json:"ignore_axis_order"`
	// Also are other definitions of the same CRS PROJ may match instead.
	Also []string `json:"also,omitempty"`
}

// Describe returns c's WKT2 and PROJJSON for def (exported for the
// crs_test tests).
func Describe(t testing.TB, def string, c CRS, ignoreAxisOrder bool) DescribedCRS {
	t.Helper()
	w, err := WKT2(c)
	if err != nil {
		t.Fatalf("%s: WKT2: %v", def, err)
	}
	j, err := PROJJSON(c)
	if err != nil {
		t.Fatalf("%s: PROJJSON: %v", def, err)
	}
	return DescribedCRS{Def: def, WKT: w, PROJJSON: string(j), IgnoreAxisOrder: ignoreAxisOrder}
}

// CheckPROJReadsBack requires PROJ (conformance/crs/proj_accepts.py) to
// parse every case's WKT2 and PROJJSON as the CRS of its definition.
func CheckPROJReadsBack(t testing.TB, cases []DescribedCRS) {
	t.Helper()
	if len(cases) == 0 {
		return
	}
	py := pythonWithPyproj(t)
	var in bytes.Buffer
	for _, c := range cases {
		line, _ := json.Marshal(c)
		in.Write(line)
		in.WriteByte('\n')
	}
	cmd := exec.Command(py, "../conformance/crs/proj_accepts.py")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	type accepted struct {
		Def        string `json:"def"`
		WKTOK      bool   `json:"wkt_ok"`
		PROJJSONOK bool   `json:"projjson_ok"`
		Error      string `json:"error"`
	}
	answers := DecodeJSONLines[accepted](t, out, 0)
	n := len(answers)
	for _, r := range answers {
		if !r.WKTOK || !r.PROJJSONOK {
			t.Errorf("%s: PROJ reads WKT2 %v, PROJJSON %v: %s", r.Def, r.WKTOK, r.PROJJSONOK, r.Error)
		}
	}
	if n != len(cases) {
		t.Errorf("proj_accepts.py answered %d of %d cases", n, len(cases))
	}
}

// sameBehaviour reports whether two CRSs convert WGS 84 points alike.
func sameBehaviour(a, b CRS) bool {
	if a == nil || b == nil || a.Geographic() != b.Geographic() {
		return false
	}
	for _, p := range [][2]float64{{1, 1}, {10, 45}, {-20, -30}, {150, 60}} {
		x1, y1, e1 := a.FromLonLat(p[0], p[1])
		x2, y2, e2 := b.FromLonLat(p[0], p[1])
		if (e1 == nil) != (e2 == nil) {
			return false
		}
		if e1 == nil && (math.Abs(x1-x2) > 1e-6 || math.Abs(y1-y2) > 1e-6) {
			return false
		}
	}
	return true
}

// TestWKT1ErrorIsDeterministic: a WKT1 projection PROJ rejects (a zero
// scale factor) gives the same error text on every parse; it quotes the
// PROJ form of the parameters, which must not follow map order.
func TestWKT1ErrorIsDeterministic(t *testing.T) {
	w := `PROJCS["x",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],` +
		`PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],` +
		`PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",15],PARAMETER["scale_factor",0],` +
		`PARAMETER["false_easting",500000],PARAMETER["false_northing",0],UNIT["metre",1]]`
	_, err := Parse(w)
	if err == nil {
		t.Fatal("scale factor 0: no error")
	}
	for range 20 {
		if _, e := Parse(w); e == nil || e.Error() != err.Error() {
			t.Fatalf("error %q, then %v", err, e)
		}
	}
}
