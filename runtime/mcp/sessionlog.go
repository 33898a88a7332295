package mcp

import (
	"time"

	"github.com/geodisaster/engine/workers"
)

// How a Host session ended (SessionLog.End).
const (
	// EndAnswered: FinalAnswer or Terminate resolved the answer.
	EndAnswered = "answered"
	// EndClientClosed: the client deleted its MCP session first.
	EndClientClosed = "client_closed"
	// EndExpired: no request for the idle timeout.
	EndExpired = "expired"
	// EndShutdown: the server shut down first.
	EndShutdown = "shutdown"
)

// SessionLog is what a Host knows of one ended runtime session: the
// gold-free record, who drove it, every exchange as the agent saw it, the
// runtime's audit (calls with their reads, denials, refusals, resolved
// answer) and its usage. An EpisodeWriter turns it into an episode.
type SessionLog struct {
	// SessionID identifies the runtime session on this server (its
	// artifact directory is named after it).
	SessionID string
	Record    workers.Record
	Agent     Agent
	Opened    time.Time
	Ended     time.Time
	// End is EndAnswered, EndClientClosed, EndExpired or EndShutdown.
	End       string
	Clients   []ClientInfo
	Exchanges []Exchange
	Audit     Audit
	Usage     Usage
}

// EpisodeWriter records the sessions a Host ends: WriteEpisode is called
// once per runtime session, when it is answered or else when it closes,
// from one goroutine at a time per session (several sessions may write at
// once).
type EpisodeWriter interface {
	WriteEpisode(log *SessionLog) error
}
