// Package episode defines the dataset's episode and SFT-row formats (spec
// section 6): the single-agent and multi-agent episodes and the turn rows
// of the orchestrator (ORC), its specialists (GA, PA, VRA) and the single
// agent, with a JSON Schema per row type (schemas/, documented in
// docs/episodes.md), a validator, and a writer that writes only validated
// rows.
//
// An episode records a session as the agent saw it: the system prompt, the
// question view (what the GetQuestion tool returns), every action and the
// runtime's observation of it (what the MCP server returns for the call,
// Observation). Observations come from the runtime, never from gold: the
// dataset projections (runtime/export) take them from a replay, and a
// served session (runtime/mcp) records the same texts. The terminal
// action's resolved answer is the evaluator's and never appears in an
// episode (the model receives only the published reference).
//
// Every episode and row carries the canonical record's identity (Identity):
// id, sample_id, family, question_type, split, training_weight,
// split_group_id and trajectory_content_group_id, so it joins the
// canonical record directly. GroupID computes the trajectory group of a
// single-agent episode from its messages and tool_sequence with identity
// metadata excluded (scoring.TrajectoryFingerprint).
package episode
