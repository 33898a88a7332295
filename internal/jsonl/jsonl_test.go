package jsonl

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestScanSkipsBlankLinesAndNumbersFromOne(t *testing.T) {
	var got []string
	err := Scan(strings.NewReader("{\"a\":1}\n\n  \t\n {\"b\":2} \r\n{\"c\":3}"), func(n int, line []byte) error {
		got = append(got, fmt.Sprintf("%d:%s", n, line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := `1:{"a":1} 4:{"b":2} 5:{"c":3}`; strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
}

func TestScanStopsAtTheFirstError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Scan(strings.NewReader("1\n2\n3\n"), func(n int, line []byte) error {
		calls++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 2 {
		t.Errorf("err %v after %d calls, want stop after 2", err, calls)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk gone") }

func TestScanReturnsTheReadError(t *testing.T) {
	err := Scan(failing{}, func(int, []byte) error { return nil })
	if err == nil || err.Error() != "disk gone" {
		t.Errorf("err %v, want the reader's error", err)
	}
}
