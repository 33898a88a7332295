package episode

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
)

// A Line is one row encoded as JSON and validated against the schema of
// its row type; only Validator.Encode makes one, so a Writer writes
// nothing unchecked.
type Line struct {
	typ RowType
	b   []byte
}

// RawLine is a line no schema checks, for a file of the empty row type
// (Create(path, "")) and only there: the export's core files, which copy
// canonical records byte for byte.
func RawLine(b []byte) Line { return Line{b: b} }

// Bytes returns the row's JSON text (without the newline). It must not be
// modified.
func (l Line) Bytes() []byte { return l.b }

// Type returns the row's type.
func (l Line) Type() RowType { return l.typ }

// Encode marshals a row (HTML characters are not escaped, so observation
// texts keep their bytes) and validates it against its type's schema.
func (v *Validator) Encode(t RowType, row any) (Line, error) {
	ls, err := v.encode(t, instances{}, []any{row})
	if err != nil {
		return Line{}, err
	}
	return ls[0], nil
}

// An Encoder encodes rows that share messages, such as an episode and its
// turn rows: each shared message is converted for the schema check once,
// not once per row that repeats it. It is not safe for concurrent use.
type Encoder struct {
	v  *Validator
	in instances
}

// NewEncoder returns an encoder checking rows against v's schemas.
func (v *Validator) NewEncoder() *Encoder { return &Encoder{v: v, in: instances{}} }

// Encode is Validator.Encode for rows that may share messages with the
// encoder's earlier rows.
func (e *Encoder) Encode(t RowType, row any) (Line, error) {
	ls, err := e.v.encode(t, e.in, []any{row})
	if err != nil {
		return Line{}, err
	}
	return ls[0], nil
}

func (v *Validator) encode(t RowType, in instances, rows []any) ([]Line, error) {
	out := make([]Line, 0, len(rows))
	for _, row := range rows {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(row); err != nil {
			return nil, fmt.Errorf("encoding %s row: %w", t, err)
		}
		b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		inst, ok, err := in.of(row)
		switch {
		case err != nil:
			return nil, &ValidationError{Type: t, Err: err}
		case ok:
			err = v.validateInstance(t, inst)
		default:
			err = v.Validate(t, b)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Line{typ: t, b: b})
	}
	return out, nil
}

// Writer writes rows of one type to a JSON Lines file. The file appears at
// its path only when Close succeeds (rows go to a temporary file beside it,
// renamed into place); Abort, or a failed Close, leaves nothing there.
type Writer struct {
	typ  RowType
	path string
	f    *os.File
	bw   *bufio.Writer
	sum  hash.Hash
	rows int
	err  error
}

// Create starts a file of rows of type t at path (its directory must
// exist).
func Create(path string, t RowType) (*Writer, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	return &Writer{typ: t, path: path, f: f, sum: h, bw: bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)}, nil
}

// WriteLine appends one validated row.
func (w *Writer) WriteLine(l Line) error {
	if w.err != nil {
		return w.err
	}
	if l.typ != w.typ {
		return fmt.Errorf("%s: a %s row cannot go into a file of %s rows", w.path, l.typ, w.typ)
	}
	if _, err := w.bw.Write(l.b); err != nil {
		w.err = err
		return err
	}
	if err := w.bw.WriteByte('\n'); err != nil {
		w.err = err
		return err
	}
	w.rows++
	return nil
}

// Write encodes, validates and appends one row.
func (w *Writer) Write(v *Validator, row any) error {
	l, err := v.Encode(w.typ, row)
	if err != nil {
		return err
	}
	return w.WriteLine(l)
}

// Rows returns the number of rows written.
func (w *Writer) Rows() int { return w.rows }

// SHA256 returns the hex SHA-256 of the file's bytes (complete after
// Close).
func (w *Writer) SHA256() string { return hex.EncodeToString(w.sum.Sum(nil)) }

// Close flushes the rows and moves the file into place.
func (w *Writer) Close() error {
	if w.f == nil {
		return errors.New("episode writer already closed")
	}
	err := w.err
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil {
		err = w.f.Chmod(0o644)
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.f.Name(), w.path)
	}
	if err != nil {
		os.Remove(w.f.Name())
	}
	w.f = nil
	return err
}

// Abort discards the rows written so far.
func (w *Writer) Abort() {
	if w.f == nil {
		return
	}
	w.f.Close()
	os.Remove(w.f.Name())
	w.f = nil
}
