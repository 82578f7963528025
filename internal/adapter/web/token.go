package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

// tokenBytes is the size of a generated token: 256 bits, printed as 64 hex digits.
const tokenBytes = 32

// tokenPath is where a generated token is kept: in the data directory beside config.json, not
// in the workspace, which the agent's commands can read.
func tokenPath(dataDir, adapter string) string {
	return filepath.Join(dataDir, adapter+".token")
}

// loadToken returns the token from config.json when there is one; otherwise the token kept in
// the data directory, creating it on first start (fresh says so, so it is printed once).
func loadToken(configured, dataDir, adapter string) (token string, fresh bool, err error) {
	if configured != "" {
		return configured, false, nil
	}
	path := tokenPath(dataDir, adapter)
	data, err := os.ReadFile(path)
	if err == nil {
		if t := strings.TrimSpace(string(data)); t != "" {
			return t, false, nil
		}
		return "", false, fmt.Errorf("the web chat's token file %s is empty; delete it and mom makes a new token", path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("read the web chat's token: %w", err)
	}
	buf := make([]byte, tokenBytes)
	if _, err := rand.Read(buf); err != nil {
		return "", false, fmt.Errorf("generate the web chat's token: %w", err)
	}
	token = hex.EncodeToString(buf)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadToken("", dataDir, adapter) // another mom wrote it first
	}
	if err != nil {
		return "", false, fmt.Errorf("save the web chat's token: %w", err)
	}
	_, err = f.WriteString(token + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", false, fmt.Errorf("save the web chat's token in %s: %w", path, err)
	}
	return token, true, nil
}

// cookieName is the session cookie's name. Cookies are shared by every port of a host, so it
// carries the port: two moms on one machine keep their own.
func cookieName(port string) string { return "mom_web_" + port }

// authorized reports whether a request carries the token: as an Authorization bearer token, in
// the session cookie, or as a ?token= query parameter. Any of them will do, so a stale cookie
// does not hide a fresh token in the address.
func authorized(r *http.Request, cookie, want string) bool {
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && sameToken(strings.TrimSpace(t), want) {
		return true
	}
	if c, err := r.Cookie(cookie); err == nil && sameToken(c.Value, want) {
		return true
	}
	return sameToken(r.URL.Query().Get("token"), want)
}

// sameToken compares in constant time. Hashing first makes the time independent of the
// lengths too.
func sameToken(got, want string) bool {
	if got == "" || want == "" {
		return false
	}
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
