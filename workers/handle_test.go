package workers

import (
	"testing"

	"github.com/geodisaster/engine/internal/team"
)

// teamEnv is an Env (methods unused) that keeps a team.
type teamEnv struct {
	Env
	t *team.Team
}

func (e teamEnv) Team() *team.Team { return e.t }

// TestTeamForUsesTheSessionTeam: an environment's own team is returned
// with a no-op release; without one (or with a nil one) TeamFor makes a
// working team that the release closes.
func TestTeamForUsesTheSessionTeam(t *testing.T) {
	own := team.New()
	defer own.Close()
	got, release := TeamFor(teamEnv{t: own})
	if got != own {
		t.Fatal("TeamFor ignored the environment's team")
	}
	release()
	ran := false
	own.Both(func() {}, func() { ran = true })
	if !ran {
		t.Error("the session team stopped working after the release")
	}
	for name, env := range map[string]Env{"no TeamEnv": struct{ Env }{}, "nil team": teamEnv{}} {
		got, release := TeamFor(env)
		if got == nil || got == own {
			t.Fatalf("%s: team %v", name, got)
		}
		n := 0
		got.Both(func() { n++ }, func() { n++ })
		if n != 2 {
			t.Errorf("%s: the new team ran %d of 2 functions", name, n)
		}
		release()
	}
}
