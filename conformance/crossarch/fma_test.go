package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fmaAllowed lists the fused multiply-adds the arm64 compiler may still
// emit in the module's packages. An entry matches an instruction whose
// source file ends with file and whose source line contains line (so that
// entries survive edits elsewhere in the file). Everything else fails
// TestNoFusedMultiplyAdd: round the product explicitly instead,
// float64(x*y) + z (float32(...) in float32 arithmetic), which the Go
// specification guarantees is not fused and leaves amd64 unchanged.
var fmaAllowed = []struct{ file, line, why string }{}

// fmaInstr matches a fused multiply-add in a `go build -gcflags=-S`
// listing for arm64: FMADD, FMSUB, FNMADD, FNMSUB in single (S) or double
// (D) precision.
var fmaInstr = regexp.MustCompile(`\((.+\.go):(\d+)\)\s+(FN?M(?:ADD|SUB)[DS])\s`)

// TestNoFusedMultiplyAdd compiles every package of the module for
// linux/arm64 with the assembly listing and fails on a fused multiply-add
// that fmaAllowed does not list: on arm64 the compiler fuses x*y + z into
// one instruction with a single rounding, so results would differ in the
// last bit from amd64 (DESIGN.md promises byte-identical answers and
// artifacts on every architecture; .ci/steps/crossarch.sh checks them
// under qemu). Test files are not checked.
//
// With a warm build cache this takes a few seconds (the compiler output
// is replayed from the cache); a cold cache first compiles the standard
// library for arm64.
func TestNoFusedMultiplyAdd(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the module for linux/arm64; skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool unavailable:", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("module source unavailable:", err)
	}
	pkgs := goList(t, goTool, root)

	out := armListing(t, goTool, root, "-S")
	if missing := unlisted(out, pkgs); len(missing) > 0 {
		// The go command replays compiler output from its cache on a
		// best-effort basis; recompile with a harmless extra flag (-e: no
		// limit on reported errors) when a listing did not come back.
		t.Logf("no cached listing for %v: recompiling", missing)
		out = armListing(t, goTool, root, "-S -e")
		if missing := unlisted(out, pkgs); len(missing) > 0 {
			t.Fatalf("no assembly listing for %v", missing)
		}
	}

	used := make([]bool, len(fmaAllowed))
	var bad []string
	lines := map[string][]string{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	fn := ""
	for sc.Scan() {
		s := sc.Text()
		if f := strings.Fields(s); len(f) > 1 && f[1] == "STEXT" {
			fn = f[0]
			continue
		}
		m := fmaInstr.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		file, op := m[1], m[3]
		n, _ := strconv.Atoi(m[2])
		src := sourceLine(lines, file, n)
		ok := false
		for i, a := range fmaAllowed {
			if strings.HasSuffix(filepath.ToSlash(file), a.file) && strings.Contains(src, a.line) {
				used[i], ok = true, true
			}
		}
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = filepath.ToSlash(rel)
		}
		key := fmt.Sprintf("%s:%d %s (in %s)", file, n, op, fn)
		if !ok && !seen[key] {
			seen[key] = true
			bad = append(bad, fmt.Sprintf("%s: %s", key, strings.TrimSpace(src)))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for i, u := range used {
		if !u {
			t.Logf("fmaAllowed entry no longer needed: %s %q", fmaAllowed[i].file, fmaAllowed[i].line)
		}
	}
	if len(bad) > 0 {
		sort.Strings(bad)
		t.Errorf("%d fused multiply-add(s) on arm64 (results differ from amd64); round the product explicitly, float64(x*y) + z, or list the site in fmaAllowed with a reason:\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// goList returns the import paths of the module's packages that have
// non-test Go files for linux/arm64.
func goList(t *testing.T, goTool, root string) []string {
	t.Helper()
	cmd := exec.Command(goTool, "list", "-f", "{{if .GoFiles}}{{.ImportPath}}{{end}}", "./...")
	cmd.Dir = root
	cmd.Env = armEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderrOf(err))
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// armListing runs go build -gcflags=FLAGS ./... for linux/arm64 and
// returns the compiler output (the -S listing of the module's packages).
func armListing(t *testing.T, goTool, root, flags string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, goTool, "build", "-gcflags="+flags, "./...")
	cmd.Dir = root
	cmd.Env = armEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("GOARCH=arm64 go build -gcflags=%q ./...: %v\n%s", flags, err, tail(out))
	}
	return out
}

func armEnv() []string {
	return append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
}

// unlisted returns the packages whose listing header ("# import/path")
// is absent from out.
func unlisted(out []byte, pkgs []string) []string {
	var missing []string
	for _, p := range pkgs {
		if !bytes.Contains(out, []byte("# "+p+"\n")) {
			missing = append(missing, p)
		}
	}
	return missing
}

// sourceLine returns line n (1-based) of file, caching file contents in
// cache; "" when it cannot be read.
func sourceLine(cache map[string][]string, file string, n int) string {
	ls, ok := cache[file]
	if !ok {
		b, err := os.ReadFile(file)
		if err == nil {
			ls = strings.Split(string(b), "\n")
		}
		cache[file] = ls
	}
	if n < 1 || n > len(ls) {
		return ""
	}
	return ls[n-1]
}

func stderrOf(err error) []byte {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.Stderr
	}
	return nil
}

// tail returns the last few KB of b, for error messages.
func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}
