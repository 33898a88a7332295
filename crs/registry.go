package crs

import "sync"

// The embedded EPSG registry (epsg_tables.go), parsed once on first use.
var (
	registryOnce sync.Once
	registryVal  *registry
	registryErr  error
)

// epsg returns the parsed EPSG registry; the error reports a corrupt
// embedded table (a build defect, covered by the package's tests).
func epsg() (*registry, error) {
	registryOnce.Do(func() {
		registryVal, registryErr = parseRegistry(epsgTablesZ, epsgTablesSize)
	})
	return registryVal, registryErr
}

// mustEPSG is epsg for callers inside the package that cannot report an
// error; the embedded table is checked by TestRegistryParses.
func mustEPSG() *registry {
	r, err := epsg()
	if err != nil {
		return &registry{}
	}
	return r
}
