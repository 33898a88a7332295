// Package scoring is the evaluator's half of the benchmark: the structured
// answer scorer geodisaster_structured_answer_v2, the scoring policy, the
// GeoKTools numeric scorer and the mixture and split audits. It depends on
// no other package of this module.
package scoring
