package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runCLI runs the CLI with args and stdin, returning exit code and streams.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), cmdIO{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestGeodInverseCLI(t *testing.T) {
	code, out, _ := runCLI(t, "40.64 -73.78 1.36 103.99\n0 0 0 0\n", "geod", "inverse")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	// PROJ 9.1 "geod +ellps=WGS84 -I -f %.12f" gives 3.305773478018 and
	// 15347512.941 (and the back azimuth -2.512159791845 = azi2 - 180).
	want := "3.305773478017613 177.48784020815515 15347512.94051294\n180 180 0\n"
	if out != want {
		t.Errorf("got %q want %q", out, want)
	}
	code, out, stderr := runCLI(t, "91 0 0 0\n", "geod", "inverse")
	if code != exitCannotRun || !strings.Contains(stderr, "outside [-90, 90]") || out != "* * * *\n" {
		t.Errorf("bad latitude: exit %d out %q err %q", code, out, stderr)
	}
	if code, _, _ := runCLI(t, "", "geod", "sideways"); code != exitUsage {
		t.Errorf("unknown mode exit %d", code)
	}
}

func TestGeodDirectCLI(t *testing.T) {
	code, out, _ := runCLI(t, "40.64 -73.78 45 1e6\n", "geod", "direct")
	if code != exitOK || out != "46.655636678549634 -64.53973721897452 51.39392747930283\n" {
		t.Errorf("exit %d out %q", code, out)
	}
}

func TestTransformCLI(t *testing.T) {
	in := "15 45\n# comment\n12.5 -33 7\n"
	code, out, _ := runCLI(t, in, "transform", "--from", "EPSG:4326", "--to", "EPSG:32633")
	want := "500000 4982950.400226552\n# comment\n266430.0369029905 -3654063.334933304 7\n"
	if code != exitOK || out != want {
		t.Errorf("exit %d out %q want %q", code, out, want)
	}
	code, out, _ = runCLI(t, "0 0\n", "transform", "--from", "aeqd:10,20", "--to", "EPSG:4326")
	if code != exitOK || out != "20 10\n" {
		t.Errorf("aeqd centre: exit %d out %q", code, out)
	}
	code, out, stderr := runCLI(t, "0 95\nfoo bar\n", "transform", "--from", "EPSG:4326", "--to", "EPSG:3857")
	if code != exitCannotRun || out != "* *\n* *\n" || !strings.Contains(stderr, "2 of 2 points failed") {
		t.Errorf("bad points: exit %d out %q err %q", code, out, stderr)
	}
	if code, _, _ := runCLI(t, "", "transform", "--from", "EPSG:1", "--to", "EPSG:4326"); code != exitUsage {
		t.Errorf("unknown EPSG exit %d", code)
	}
	if code, _, _ := runCLI(t, "", "transform", "--to", "EPSG:4326"); code != exitUsage {
		t.Errorf("missing --from exit %d", code)
	}
}
