// Package scoring is the evaluator's half of the benchmark: the structured
// answer scorer geodisaster_structured_answer_v2, the scoring policy, the
// GeoKTools numeric scorer and the mixture, split-isolation and
// sealed-corpus audits. It depends on no other package of this module.
//
// # Structured answers (spec section 2)
//
// ScoreV2 and ScoreV2Values decide correctness of a complete answer JSON:
// exact object keys, JSON types, strings, booleans, null states, array
// lengths and order, and finite numbers within an absolute tolerance
// (DefaultAbsTol, 1e-6) with no relative tolerance. Choices where the spec
// is silent:
//
//   - integer and fractional spellings of one number are the same JSON type
//     (1 == 1.0); numbers are compared as IEEE doubles, |gold-pred| <= tol,
//     like Python's math.isclose(rel_tol=0, abs_tol=tol);
//   - the bare tokens NaN, Infinity, -Infinity (which Python's json module
//     writes) and literals that overflow a double decode to NonFinite and
//     make a prediction incorrect with reason "non-finite";
//   - a duplicate object key makes a document malformed (Python would keep
//     the last value silently; an answer must be unambiguous);
//   - strings compare byte for byte after JSON unescaping, without Unicode
//     normalization or trimming;
//   - the first failing path is found by checking missing keys, then extra
//     keys (each in sorted order), then members in sorted key order, and
//     array elements in index order. When an array holds gold's elements
//     in another order the reason says "order".
//
// Every scored verdict carries the path and a reason category (the Reason*
// constants). The canonical policy, scoring/scoring_policy_43.json (the
// repository's one copy), is embedded (DefaultPolicy, DefaultPolicyJSON).
//
// # GeoKTools (../shared/spec/geoktools-release-audit.md)
//
// GeoKToolsScore reproduces the deterministic scorer the audit describes:
// numbers get full credit within 10% relative error and max(1-err, 0)
// beyond; a zero reference credits only zero; string predictions for a
// numeric reference pass through the first-number regex, so "1e3" and
// "1,000" read as 1. Strings are scored by RougeL, the LCS-based F-measure
// over tokens produced like the common ROUGE package's default tokenizer
// without stemming (lowercase, ASCII letters and digits only). AuditMixture
// computes the total-variation bound with its 2^n corner check, and
// Bootstrap gives case and template-cluster intervals side by side.
//
// # Split isolation and sealed corpora (spec sections 2 and 6)
//
// AuditSplits checks that no split group, source sample, declared path,
// routing-content fingerprint or complete-trajectory fingerprint is shared
// by train and test records, and that training_weight is the inverse
// multiplicity of within-split trajectory duplicates. SealFS and VerifySeal
// seal a corpus (size and SHA-256 per file) and report changed, resized,
// added and removed files; an empty corpus is never sealed.
package scoring
