package crs

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
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
	var res []described
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var d described
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		res = append(res, d)
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
		w, err := WKT2FromEPSG(d.Code)
		if err != nil {
			t.Errorf("EPSG:%d: %v", d.Code, err)
			continue
		}
		if w != d.WKT {
			bad++
			if bad <= 20 {
				t.Errorf("EPSG:%d WKT2 differs: %s", d.Code, firstDiff(w, d.WKT))
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
	args := []string{"--sample", "300", "--seed", "27"}
	if os.Getenv("GEODISASTER_CRS_DESCRIBE") == "all" {
		args = []string{"--all"}
	}
	bad := 0
	res := loadDescribed(t, args...)
	for _, d := range res {
		if d.Error != "" {
			continue
		}
		b, err := PROJJSONFromEPSG(d.Code)
		if err != nil {
			t.Errorf("EPSG:%d: %v", d.Code, err)
			continue
		}
		var ours, theirs any
		if err := json.Unmarshal(b, &ours); err != nil {
			t.Fatalf("EPSG:%d: %v\n%s", d.Code, err, b)
		}
		if err := json.Unmarshal(d.PROJJSON, &theirs); err != nil {
			t.Fatal(err)
		}
		if diff := jsonDiff("", ours, theirs); diff != "" {
			bad++
			if bad <= 20 {
				t.Errorf("EPSG:%d PROJJSON differs at %s", d.Code, diff)
			}
		}
	}
	t.Logf("%d CRSs compared, %d differ", len(res), bad)
}
