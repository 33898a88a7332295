// Package jsonl reads JSON Lines streams (one JSON value per line), as
// the records, test inputs and episode files are written.
package jsonl

import (
	"bufio"
	"bytes"
	"io"
)

// MaxLine is the longest line Scan reads; a longer one is an error
// (bufio.ErrTooLong).
const MaxLine = 512 << 20

// Scan calls fn with each non-blank line of r, trimmed of surrounding
// white space and numbered from 1, until fn returns an error, which Scan
// returns; otherwise it returns the read error, if any. The line is valid
// only until fn returns.
func Scan(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(n, b); err != nil {
			return err
		}
	}
	return sc.Err()
}
