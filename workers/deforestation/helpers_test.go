package deforestation

import (
	"github.com/geodisaster/engine/workers"
	"github.com/geodisaster/engine/workers/workertest"
)

// memEnv is the in-memory Env of these tests, with the family's scene
// fixtures as methods.
type memEnv struct{ *workertest.Env }

func newMemEnv() *memEnv { return &memEnv{workertest.NewEnv()} }

var (
	fill  = workertest.Fill
	nd    = workertest.NoData
	geoT  = workertest.GeoT
	utm10 = workertest.UTM10
	args  = workers.ArgsOf
)
