package adapter

import (
	"strings"
	"testing"
)

func TestHealthOffUnlessSet(t *testing.T) {
	t.Parallel()
	c, err := parse([]byte(`{"adapters": {"web": {"type": "web"}}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Health.Listen != "" || strings.Contains(c.Summary(), "health:") {
		t.Errorf("health without the section = %+v\n%s", c.Health, c.Summary())
	}
}

// TestHealthBesideTheWebChat: the health checks cannot have the web chat's address, where the
// chat answers them itself.
func TestHealthBesideTheWebChat(t *testing.T) {
	t.Parallel()
	_, err := parse([]byte(`{"health": {"listen": "127.0.0.1:8787"}, "adapters": {"web": {"type": "web"}}}`), "config.json", noEnv)
	want := `config.json: health.listen: "127.0.0.1:8787" is where the web chat web listens, which answers /healthz and /readyz itself`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error:\n%v\nwant it to start with:\n%s", err, want)
	}
	// Port 0 picks a free port for each of them, so they never clash.
	if _, err := parse([]byte(`{"health": {"listen": "127.0.0.1:0"}, "adapters": {"web": {"type": "web", "listen": "127.0.0.1:0"}}}`), "config.json", noEnv); err != nil {
		t.Errorf("both on port 0: %v", err)
	}
}
