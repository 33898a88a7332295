package crs

import (
	"sync"

	"github.com/geodisaster/engine/crs/internal/core"
)

// The embedded EPSG registry (epsg_tables.go), parsed once on first use.
var (
	registryOnce sync.Once
	registryVal  *core.Registry
	registryErr  error
)

// epsg returns the parsed EPSG registry; the error reports a corrupt
// embedded table (a build defect, covered by the package's tests).
func epsg() (*core.Registry, error) {
	registryOnce.Do(func() {
		registryVal, registryErr = core.ParseRegistry(epsgTablesZ, epsgTablesSize)
	})
	return registryVal, registryErr
}

// mustEPSG is epsg for callers inside the package that cannot report an
// error; the embedded table is checked by TestRegistryParses.
func mustEPSG() *core.Registry {
	r, err := epsg()
	if err != nil {
		return &core.Registry{}
	}
	return r
}
