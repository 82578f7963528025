package httpclient

import (
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects is how many redirects one request may follow, as in net/http's default policy.
const maxRedirects = 10

// CheckRedirect is the redirect policy of every client New makes, and of every file download
// (package fetch). It follows up to ten redirects, as net/http does by default, and once the
// request has left the origin it was sent to (scheme, host or port changed, even for one hop
// in between) it carries only the headers that describe what it asks for (keptAcrossOrigins):
// no Authorization, no API key header, no Cookie, and no Referer, which would name the
// previous address and so a bot token, which some platforms put in their download paths.
//
// net/http's own rule (shouldCopyHeaderOnRedirect) is not enough and is not relied on: it
// drops only Authorization, Cookie and WWW-Authenticate, and only when the host name changes
// to one that is not a subdomain, so another port of the same host, https downgraded to http,
// and any header of another name (x-api-key) all kept the credentials.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return errors.New("stopped after 10 redirects")
	}
	first := Origin(via[0].URL)
	left := Origin(req.URL) != first
	for _, r := range via[1:] {
		left = left || Origin(r.URL) != first
	}
	if left {
		for name := range req.Header {
			if !keptAcrossOrigins(name) {
				delete(req.Header, name)
			}
		}
	}
	return nil
}

// keptAcrossOrigins says which headers a request keeps on a redirect to another origin: those
// that say what is asked for, none that vouches for who asks. A list of what to keep rather
// than what to drop, so a credential under a name nobody thought of is dropped too.
func keptAcrossOrigins(name string) bool {
	switch http.CanonicalHeaderKey(name) {
	case "Accept", "Accept-Encoding", "Accept-Language", "Content-Type", "Range", "User-Agent":
		return true
	}
	return false
}

// Origin is u's scheme, host and port as "https://files.example.com:443": the port is written
// out even when it is the scheme's default, and the host is lower case, so two spellings of
// one server's address compare equal.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	return scheme + "://" + net.JoinHostPort(host, port)
}
