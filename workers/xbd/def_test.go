package xbd

import (
	"testing"

	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

func TestDefMatchesKernelTables(t *testing.T) {
	workertest.CheckFamily(t, Def(), workers.XBD)
}
