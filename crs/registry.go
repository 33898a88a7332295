package crs

import (
	"sync"

	"github.com/geodisaster/engine/crs/internal/core"
)

// The embedded EPSG registry (epsg_tables.go), indexed once on first use;
// its records are parsed on their first lookup (core.Registry).
var (
	registryOnce sync.Once
	registryVal  *core.Registry
	registryErr  error
)

// epsg returns the EPSG registry; the error reports a corrupt embedded
// table (a build defect, covered by TestRegistryParses). A corrupt record
// met by a later lookup is reported by the registry's Err (see checked).
func epsg() (*core.Registry, error) {
	registryOnce.Do(func() {
		registryVal, registryErr = core.ParseRegistry(epsgTables)
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

// checked returns v, err, or the error of a corrupt registry record a
// lookup met (lookups of such a record find nothing): what the registry's
// users return so that a corrupt table is an error, never a silently
// different answer.
func checked[T any](r *core.Registry, v T, err error) (T, error) {
	if err == nil {
		if e := r.Err(); e != nil {
			var zero T
			return zero, e
		}
	}
	return v, err
}
