// Package runtime executes the benchmark's runtime contract: an Engine
// over a strict dataset root opens a Session per record, in which an agent
// (or a replay of the record's GT chain) calls workers by name; each call
// reads only what the read gate authorizes, its result becomes a new
// handle, and once the question type's answer projection validates the
// answer is published under AnswerRef for Terminate or FinalAnswer.
//
// The package is organized by concern:
//
//   - engine.go: Config and Engine, what sessions share.
//   - session.go: Session and Call; fork.go (Fork) and limits.go
//     (NewSessionWith, SessionLimits, LimitError).
//   - publish.go: publication, Resolve and the View that projections
//     read; answers.go: each question type's projection and answer
//     schema, taken from its family package (workers/<family>).
//   - callenv.go: the workers.Env of one call; gate.go: the read gate
//     (ReadPolicy, the data root, Denial); filecache.go: each declared file
//     read, hashed (internal/hashedread) and checked once per session;
//     prefetch.go: bands decoded while the file is still being hashed;
//     buffers.go: the engine's pool of large buffers.
//   - artifacts.go: the one path by which workers write files.
//   - replay.go: ReplayRecord and Replay, ReplayOptions and sharding;
//     report.go: the per-type and per-family Report with statuses.
//   - outdir.go, manifest.go, files.go: a run's output directory, its
//     manifest, and merging shards.
package runtime
