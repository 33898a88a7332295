package runtime

import "encoding/json"

// PublishedAnswer returns the stored bytes of a published answer (not a
// copy), so tests can corrupt them.
func (s *Session) PublishedAnswer(name string) json.RawMessage { return s.answers[name] }
