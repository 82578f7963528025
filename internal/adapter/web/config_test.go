package web

import (
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/config/configtest"
	"strings"
	"testing"
)

func TestWebOptions(t *testing.T) {
	c, err := config.Parse([]byte(`{"adapters": {"web": {"type": "web"}}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	if w, _ := a.Options.(*Config); w == nil || w.Listen != DefaultListen || w.Token != "" || !a.DM.Everyone {
		t.Fatalf("defaults = %+v, dm %v", a.Options, a.DM)
	}
	c, err = config.Parse([]byte(`{"adapters": {"web": {"type": "web", "listen": "0.0.0.0:9000", "token": "${T}"}}}`), "config.json",
		configtest.Env(map[string]string{"T": "0123456789abcdef0123"}), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Adapters[0].Options.(*Config); w.Listen != "0.0.0.0:9000" || w.Token != "0123456789abcdef0123" {
		t.Errorf("options = %+v", w)
	}
	if sum := c.Summary(); strings.Contains(sum, "0123456789abcdef0123") || !strings.Contains(sum, "listens on 0.0.0.0:9000; token from config") {
		t.Errorf("summary leaks the token or misses the address:\n%s", sum)
	}
}

func TestWebErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"listen": "8787"`, `adapters.web.listen: "8787" is not a host:port address`},
		{`"listen": "127.0.0.1:http"`, `adapters.web.listen: "127.0.0.1:http" has no valid port`},
		{`"listen": ":8787"`, `adapters.web.listen: ":8787" can be reached from other machines; set "token"`},
		{`"listen": "192.168.1.5:8787"`, `can be reached from other machines`},
		{`"token": "short"`, `adapters.web.token: is 5 characters; use at least 16`},
		{`"tokn": "x"`, `unknown key "tokn"`},
	}
	for _, tt := range tests {
		_, err := config.Parse([]byte(`{"adapters": {"web": {"type": "web", `+tt.in+`}}}`), "config.json", configtest.Env(nil), configPlatform())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.in, err, tt.want)
		}
	}
	for _, ok := range []string{`"listen": "localhost:1"`, `"listen": "[::1]:8787"`, `"listen": "127.0.0.2:0"`} {
		if _, err := config.Parse([]byte(`{"adapters": {"web": {"type": "web", `+ok+`}}}`), "config.json", configtest.Env(nil), configPlatform()); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "LOCALHOST": true,
		"": false, "0.0.0.0": false, "::": false, "example.com": false, "10.0.0.1": false} {
		if got := LoopbackHost(host); got != want {
			t.Errorf("LoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
