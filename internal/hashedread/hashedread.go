// Package hashedread reads a file and its SHA-256 in one pass, hashing on
// another goroutine the chunks already read while the next ones are read.
package hashedread

import (
	"crypto/sha256"
	"io"
	"os"
)

// chunk is the read size of a large file; a file smaller than two chunks is
// read and then hashed on the caller's goroutine.
const chunk = 256 << 10

// ReadFile is os.ReadFile(name) with the SHA-256 of the bytes read. A large
// file is read in chunks while another goroutine hashes the chunks already
// read, into a buffer from alloc (make when alloc is nil; alloc(n) must
// return n bytes, with any contents; a small file is read into one too). When loaded is not nil it is called
// with the file's bytes once they are all read and before their digest is
// complete (so that decoding them can start); it must not modify them.
// Errors are os.ReadFile's.
func ReadFile(name string, alloc func(int) []byte, loaded func([]byte)) ([]byte, [32]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, [32]byte{}, err
	}
	defer f.Close()
	size := 0
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && int64(int(fi.Size())) == fi.Size() {
		size = int(fi.Size())
	}
	if size < 2*chunk {
		return readSmall(f, size, alloc, loaded)
	}
	return readLarge(f, size, alloc, loaded)
}

// readSmall reads f whole, into a buffer from alloc (of size+1 bytes, so
// that reaching EOF does not grow it) when alloc is not nil, then hashes
// it.
func readSmall(f *os.File, size int, alloc func(int) []byte, loaded func([]byte)) ([]byte, [32]byte, error) {
	var data []byte
	if alloc != nil {
		data = alloc(size + 1)[:0]
	} else {
		data = make([]byte, 0, size+512)
	}
	for {
		if len(data) == cap(data) {
			// The file grew since Stat (or its size was unknown).
			data = append(data, 0)[:len(data)]
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, [32]byte{}, err
		}
	}
	if loaded != nil {
		loaded(data)
	}
	return data, sha256.Sum256(data), nil
}

// readLarge reads f in chunks into a buffer of size+1 bytes (as
// os.ReadFile: one byte more than the size, so reaching EOF does not grow
// the buffer) while a goroutine hashes them: it receives the end offset of
// each chunk read, and the reader keeps appending beyond it.
func readLarge(f *os.File, size int, alloc func(int) []byte, loaded func([]byte)) ([]byte, [32]byte, error) {
	var data []byte
	if alloc != nil {
		data = alloc(size + 1)[:0]
	} else {
		data = make([]byte, 0, size+1)
	}
	ends := make(chan int, size/chunk+2)
	hashed := make(chan [32]byte, 1)
	buf := data[:cap(data)]
	go func() {
		h := sha256.New()
		done := 0
		for end := range ends {
			h.Write(buf[done:end])
			done = end
		}
		var sum [32]byte
		h.Sum(sum[:0])
		hashed <- sum
	}()
	var rerr error
	for {
		if len(data) == cap(data) {
			// The file grew since Stat: read the rest and hash it all
			// once the hasher has stopped reading data.
			close(ends)
			<-hashed
			rest, err := io.ReadAll(f)
			if err != nil {
				return nil, [32]byte{}, err
			}
			data = append(data, rest...)
			if loaded != nil {
				loaded(data)
			}
			return data, sha256.Sum256(data), nil
		}
		n, err := f.Read(data[len(data):min(cap(data), len(data)+chunk)])
		data = data[:len(data)+n]
		if n > 0 {
			ends <- len(data)
		}
		if err != nil {
			if err != io.EOF {
				rerr = err
			}
			break
		}
	}
	close(ends)
	if rerr == nil && loaded != nil {
		loaded(data)
	}
	sum := <-hashed
	if rerr != nil {
		return nil, [32]byte{}, rerr
	}
	return data, sum, nil
}
