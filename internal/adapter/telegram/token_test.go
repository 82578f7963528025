package telegram_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTelegramRefusedTokenIsNamed: a token Telegram refuses stops mom from starting with an
// error that says so, and the secret part of the token shows neither there nor in the log.
// (cmd/mom keeps the check that the binary then exits 1 and prints it.)
func TestTelegramRefusedTokenIsNamed(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	cfg, err := os.ReadFile(filepath.Join(w.Dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(w.tg.Token(), ":")
	w.WriteConfig(strings.Replace(string(cfg), w.tg.Token(), id+":wrong-secret", 1))
	w.wrongToken = true
	_, err = w.StartErr()
	if err == nil {
		w.Stop()
		t.Fatal("mom started with a token Telegram refuses")
	}
	if !strings.Contains(err.Error(), "Telegram did not accept the bot token (getMe)") ||
		strings.Contains(err.Error(), "wrong-secret") || strings.Contains(w.Log(), "wrong-secret") {
		t.Errorf("error %q; log:\n%s\nwant the refused token named, and not printed", err, w.Log())
	}
}
