// Package fetch downloads the files people attach to chat messages into the channel's
// attachments directory (store.ChannelDir.SaveAttachment), for every platform adapter alike: the
// size cap, the time limit, the platform's servers as the only place files come from and
// credentials go to (Hosts, Fetcher.Get), and a failure described in the attachment rather
// than lost, so the model hears of the file even when it could not be fetched. How a
// platform hands out a file (an address, a token, an API call first) stays in its adapter.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/store"
)

// timeout bounds one download, so a stalled transfer does not hold up its channel forever.
const timeout = 5 * time.Minute

// Fetcher saves the files of one adapter's messages.
type Fetcher struct {
	// Platform names the platform in log lines and errors, as people know it.
	Platform string
	// Adapter is the adapter's name, which names its channel directories.
	Adapter string
	// Store receives the files; nil refuses every file.
	Store *store.Store
	// Log receives the failures.
	Log *slog.Logger
	// Max is the largest file kept, in bytes.
	Max int64
	// PlatformMax says Max is the platform's limit rather than mom's, which the refusal of a
	// larger file says.
	PlatformMax bool
	// HTTP sends the downloads (nil: http.DefaultClient). Its own redirect policy is
	// replaced by httpclient.CheckRedirect, whoever made it.
	HTTP *http.Client
	// Hosts are the platform's servers, the only ones Get downloads from.
	Hosts Hosts
}

// File is a file a message came with, as the platform describes it.
type File struct {
	// Name is the sender's file name.
	Name string
	// MimeType is the platform's word for the content, kept when the content does not tell.
	MimeType string
	// Size is the size the platform reports; 0 when it does not.
	Size int64
	// Gone, when set, says why the platform cannot hand the file out; nothing is fetched.
	Gone error
}

// Save stores f in the channel's attachments, reading it from open, which is called only
// once the size and the store are known to be fine and returns the file's content or why it
// could not. ts is the message's time, which names the file.
func (f *Fetcher) Save(ctx context.Context, channel string, ts time.Time, file File, open func(context.Context) (io.ReadCloser, error)) chat.Attachment {
	att := chat.Attachment{Filename: file.Name, MimeType: file.MimeType, Size: file.Size}
	fail := func(err error) chat.Attachment {
		f.Log.Warn("could not download a file from "+f.Platform, "channel", channel, "file", file.Name, "err", err)
		att.Error = err.Error()
		return att
	}
	switch {
	case file.Gone != nil:
		return fail(file.Gone)
	case file.Size > f.Max && f.PlatformMax:
		return fail(fmt.Errorf("the file is %d MB, and %s lets bots download files only up to %d MB", file.Size>>20, f.Platform, f.Max>>20))
	case file.Size > f.Max:
		return fail(fmt.Errorf("the file is %d MB, over mom's limit of %d MB", file.Size>>20, f.Max>>20))
	case f.Store == nil:
		return fail(errors.New("mom has no place to keep files"))
	}
	ch, err := f.Store.ChannelDir(f.Adapter, channel)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body, err := open(ctx)
	if err != nil {
		return fail(err)
	}
	defer body.Close()
	saved, err := ch.SaveAttachment(file.Name, ts, body, f.Max)
	if err != nil {
		return fail(err)
	}
	if saved.MimeType == "" {
		saved.MimeType = file.MimeType
	}
	return saved
}

// StatusError is a download the server answered with something other than 200 OK.
type StatusError struct {
	// From names who answered: the platform, or its file server.
	From string
	// Status is the answer's status line ("404 Not Found").
	Status string
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("download failed: %s answered %s", e.From, e.Status)
}

// Get downloads the file at address from one of the platform's servers (Hosts), sending
// header with it: the platform's credentials, nil for none. An address on any other server
// is refused before anything is sent. A redirect may lead elsewhere (CDNs do), but then the
// request goes on without header and without a Referer (httpclient.CheckRedirect). The
// answer is returned if it is 200 OK; otherwise the error says the download failed: a
// *StatusError naming from (the platform, or its file server), or the transport's error.
//
// Errors never quote address, which may hold a token (some platforms put the bot's in file
// addresses): only its host.
func (f *Fetcher) Get(ctx context.Context, address string, header http.Header, from string) (*http.Response, error) {
	u, err := url.Parse(address)
	if err != nil {
		return nil, errors.New("download failed: the file's address is not a valid URL")
	}
	if !f.Hosts.Allows(u) {
		return nil, fmt.Errorf("the file's address points to %s, not to %s, and mom fetches %s's files only from %s's own servers", describeHost(u), f.Platform, f.Platform, f.Platform)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errors.New("download failed: the file's address is not a valid URL")
	}
	for name, values := range header {
		req.Header[name] = values
	}
	c := *http.DefaultClient
	if f.HTTP != nil {
		c = *f.HTTP
	}
	c.CheckRedirect = httpclient.CheckRedirect
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download failed: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, &StatusError{From: from, Status: resp.Status}
	}
	return resp, nil
}

// describeHost names u's server for an error: its host and port, quoted.
func describeHost(u *url.URL) string {
	if u.Host == "" {
		return "no server"
	}
	return strconv.Quote(u.Host)
}
