// Package conformance pins the engine to the native reference stack.
//
// Subpackages and files:
//   - schemas/: the answer JSON Schemas of the question types;
//   - synth/: the deterministic synthetic corpus generator;
//   - oracle/: the native-stack oracle (Python on Debian's rasterio, NumPy,
//     SciPy, scikit-image, pyproj, shapely) that recomputes answers
//     independently of the Go code;
//   - goldens/: the oracle's committed answers, one file per family, which
//     the tests in this package compare the Go replay against (CI needs no
//     Python).
package conformance
