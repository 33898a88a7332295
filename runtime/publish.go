package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/geodisaster/engine/workers"
)

// Publication: after each successful worker or TaskComplete call the
// session tries its question type's answer projection; an answer that
// validates is published as answer_1 (AnswerRef), and Terminate and
// FinalAnswer resolve it again through Resolve.

// project tries the type's answer projection and publishes answer_1 when
// the complete answer validates; it returns the published reference.
func (s *Session) project() string {
	ans, err := s.eng.answers.project(s.rec.QuestionType, &View{s: s})
	if err != nil || ans == nil {
		if err != nil {
			s.log.Debug("projection not published", "err", err)
		}
		return ""
	}
	s.answers["answer_1"] = ans
	if s.published == nil {
		s.published = map[string][]byte{}
	}
	s.published["answer_1"] = bytes.Clone(ans)
	return AnswerRef
}

// Resolve returns the answer behind a published reference after
// revalidating it against the question type's schema.
func (s *Session) Resolve(ref string) (json.RawMessage, error) {
	name, ok := strings.CutPrefix(ref, "ANSWER_JSON:")
	if !ok {
		return nil, fmt.Errorf("answer reference %q must look like %s", ref, AnswerRef)
	}
	ans, ok := s.answers[name]
	if !ok {
		return nil, fmt.Errorf("answer reference %q is not published in this session", ref)
	}
	// Bytes equal to those that passed the schema when they were
	// published pass it again (the same schema, a deterministic check);
	// anything else is validated afresh.
	if !bytes.Equal(ans, s.published[name]) {
		if err := s.eng.answers.validate(s.rec.QuestionType, ans); err != nil {
			return nil, fmt.Errorf("answer reference %q fails revalidation: %w", ref, err)
		}
	}
	return ans, nil
}

// Terminal returns the answer resolved by Terminate or FinalAnswer.
func (s *Session) Terminal() json.RawMessage { return s.terminal }

// View is the read-only session state an answer projection sees.
type View struct{ s *Session }

// Latest returns the most recent result handle of a kind, or nil.
func (v *View) Latest(kind string) *workers.Handle {
	n := v.s.counters[kind]
	if n == 0 {
		return nil
	}
	return v.s.handles[kind+"_"+strconv.Itoa(n)]
}

// Completed reports whether TaskComplete(status=TASK_COMPLETE) was called.
func (v *View) Completed() bool {
	for _, st := range v.s.completed {
		if st == "TASK_COMPLETE" {
			return true
		}
	}
	return false
}
