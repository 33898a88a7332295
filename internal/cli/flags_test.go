package cli

import (
	"errors"
	"flag"
	"reflect"
	"strings"
	"testing"
)

func newTestSet() (*FlagSet, *string, *bool) {
	fs := NewFlagSet("demo", "[flags] FILE...")
	out := fs.String("out", "", "output directory")
	v := fs.Bool("v", false, "verbose")
	return fs, out, v
}

func TestParseFlagsAnywhere(t *testing.T) {
	for _, args := range [][]string{
		{"--out", "o", "-v", "a", "b"},
		{"a", "--out", "o", "b", "-v"},
		{"a", "b", "--out=o", "--v"},
		{"-v", "a", "-out", "o", "b"},
	} {
		fs, out, v := newTestSet()
		ops, err := fs.Parse(args)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if *out != "o" || !*v || !reflect.DeepEqual(ops, []string{"a", "b"}) || !reflect.DeepEqual(fs.Args(), ops) || fs.NArg() != 2 {
			t.Errorf("%v: out %q v %v operands %v Args %v", args, *out, *v, ops, fs.Args())
		}
	}
}

func TestParseDoubleDashEndsFlags(t *testing.T) {
	fs, out, _ := newTestSet()
	ops, err := fs.Parse([]string{"a", "--", "--out", "-v"})
	if err != nil || *out != "" || !reflect.DeepEqual(ops, []string{"a", "--out", "-v"}) {
		t.Errorf("operands %v out %q err %v", ops, *out, err)
	}
}

func TestParseHelpAndErrors(t *testing.T) {
	for _, h := range []string{"-h", "--help", "-help"} {
		fs, _, _ := newTestSet()
		_, err := fs.Parse([]string{"a", h})
		var hr *HelpRequest
		if !errors.As(err, &hr) || hr.FlagSet != fs || !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s: %v", h, err)
		}
	}
	fs, _, _ := newTestSet()
	_, err := fs.Parse([]string{"--nope"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "demo: flag provided but not defined: -nope") {
		t.Errorf("unknown flag: %v", err)
	}
}

func TestRequireReportsEveryMissingFlag(t *testing.T) {
	fs, _, _ := newTestSet()
	fs.String("dest", "", "destination")
	fs.Require("out", "dest")
	_, err := fs.Parse([]string{"a"})
	var ue *UsageError
	if !errors.As(err, &ue) || err.Error() != "demo: missing required flags --out, --dest" {
		t.Errorf("got %v", err)
	}
	fs, _, _ = newTestSet()
	fs.Require("out")
	if _, err := fs.Parse([]string{"--out", ""}); err != nil {
		t.Errorf("an explicitly set empty value counts as set: %v", err)
	}
	if !fs.IsSet("out") || fs.IsSet("v") {
		t.Error("IsSet")
	}
}

func TestWriteHelp(t *testing.T) {
	fs, _, _ := newTestSet()
	fs.Description = "Does a demo."
	fs.Int("workers", 4, "workers")
	fs.Require("out")
	fs.Example("geodisaster demo --out o a.tif", "one file")
	fs.ExitCodes = []string{"3    blocked"}
	var b strings.Builder
	if err := fs.WriteHelp(&b); err != nil {
		t.Fatal(err)
	}
	h := b.String()
	for _, want := range []string{
		"usage: geodisaster demo [flags] FILE...\n\nDoes a demo.\n",
		"  --out string          output directory (required)\n",
		"  --workers int         workers (default 4)\n",
		"  --v                   verbose\n",
		"  --log-format F        logs on stderr",
		"examples:\n  # one file\n  geodisaster demo --out o a.tif\n",
		"  2    usage error",
		"  3    blocked\n  5    could not run",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("help lacks %q:\n%s", want, h)
		}
	}
}
