// Package release is REAL mode: conformance of the engine against the
// published GeoDisaster release (spec sections 2, 4-7 and 10; DESIGN.md
// "Conformance and honesty").
//
// Run takes a release root laid out like the public archive and, in order:
//
//  1. verifies the release layout: the canonical records file
//     data/core/geodisaster_2921_source_with_splits.jsonl and its SHA-256
//     (CanonicalSHA256), the inventory (2,921 records, 43 types, 2,629
//     train / 292 test), the path inventory (every declared path
//     repository-relative, present, a regular file and, symlinks resolved,
//     inside the root) and the Sen1Floods11 hydration manifest when the
//     release ships one;
//  2. adapts every canonical record to workers.Record (Adapt), reporting
//     each field it could not map instead of guessing;
//  3. replays every record's GT chain in a gold-free session, scores the
//     resolved answer against the canonical gold under the scoring policy
//     and validates it against the type's answer schema;
//  4. checks the spec's published per-type facts (Facts) on the corpus.
//
// The corpus status follows the ladder: REAL only when the canonical
// checksum, the inventory, the path inventory and the hydration manifest
// all verify; FIXTURE for a release-shaped synthetic corpus whose own
// manifest verifies (BuildFixture); DEGRADED for anything else that could
// be read; RESOURCE_BLOCKED when there is no release root or no canonical
// file. Published facts are checked only on a REAL corpus and are reported
// "not_checkable" otherwise. No overall score is computed: every type is
// reported with its own denominators.
package release
