// Package mcp serves GeoDisaster runtime sessions over the Model Context
// Protocol (github.com/modelcontextprotocol/go-sdk), so that an agent
// drives the 18 workers through a standard tool protocol: one session
// (Server), or every record of a test-input file to many concurrent,
// isolated sessions (Host).
//
// A Server (New) opens one session on the gold-free projection of a record
// (spec section 2: the agent never receives answers or GT chains) and
// exposes, following the spec's two agent forms and role table (section
// 3):
//
//	form                      tools
//	single agent              GetQuestion, the 18 workers, TaskComplete, FinalAnswer
//	orchestrator (orc)        GetQuestion, the 18 workers, TaskComplete, Terminate
//	specialist GA, PA or VRA  GetQuestion, the role's workers, TaskComplete
//
// The multi-agent form runs over one session: Server.Specialist gives the
// orchestrator's server a view per specialist (its own MCP server over the
// same handles), so the orchestrator delegates each step to the worker's
// owner and terminates on the reference the runtime publishes. "geodisaster
// serve --agent orc --http ADDR" serves the orchestrator at / and the
// specialists at /GA, /PA and /VRA; a process started with --role serves
// one specialist over its own session.
//
// Each worker's input schema is the union of its variants' arguments,
// named as in the record format (docs/records.md); its description lists
// the variants and their arguments. A successful call returns, as JSON
// text and as structured content,
//
//	{"tool", "handle", "evidence", "artifacts", "published", "note"}
//
// (episode.Observation, the same text the dataset's episodes record),
// where published is "ANSWER_JSON:answer_1" once the runtime has published
// the answer; Terminate and FinalAnswer return {"answer_ref", "answer"}
// with the resolved, revalidated answer. A failed call is a tool error
// (isError) whose text is the reason and whose structured content is
// {"tool", "error", "category"}, category being one of limit (a session
// limit, Limits), denied (the read gate, opened_handle_exact_path_v1),
// argument, unknown_handle, refused (a tool of another role or agent form,
// such as Terminate from a specialist), terminated, shutdown or failed.
// Refusals and denials are logged.
//
// Resources: QuestionURI (the question, type and initial handles with
// their file cards; the same JSON as the GetQuestion tool), HandlesURI
// (every handle with its lineage), AuditURI (calls with the files they
// read and their SHA-256, denials, refusals and the resolved answer) and,
// for an orchestrator a Host serves, SpecialistsURI (its specialists'
// endpoints).
//
// Transports: Server.Run serves any SDK transport; wrap a stream transport
// such as stdio in Sequential so that pipelined tool calls run in the order
// they were sent and a client that closes its input still gets every
// answer. Server.HTTPHandler serves streamable HTTP.
//
// A Host (NewHost) serves every record of a test-input file over
// streamable HTTP: each initialize at SingleEndpoint(id) opens a new
// single-agent session of record id, each at OrchestratorEndpoint(id) a
// new orchestrator whose specialists join it at SpecialistEndpoint.
// Sessions are isolated (their own runtime session, MCP server and
// artifact directory), bounded (Limits, HostOptions), closed when idle,
// ended by Host.Shutdown; GET /status and /metrics report them (Status).
// Every ended session goes to an EpisodeWriter: EpisodeDir writes its
// episode in the dataset's format (runtime/episode; EpisodeLine) and its
// SessionRecord (how it ended, the resolved answer, the audit), which
// ReadEpisodeDir reads back for scoring. The command "geodisaster serve"
// wires it all (docs/serve.md).
package mcp
