// Package workers implements the GeoDisaster benchmark's 18 geospatial
// workers (ReadData ... CompareScenes) on top of the reusable raster,
// vector, crs and geodesy packages.
//
// A worker sees its session only through Env: it opens the handles named in
// its arguments (which authorizes exactly the file cards reachable from
// them), reads files through the read gate and returns a Result whose
// Evidence is shown to the agent and whose Payload is consumed by later
// workers. Workers branch on declared arguments and handle metadata only,
// never on a sample id or an expected answer.
//
// Each tool dispatches on one discriminating argument (ReadData's role,
// PrepareScene's mode, ComputeStats' metric, ClassifyChange's rule, ...);
// the variants for one question-type family live in that family's file.
package workers
