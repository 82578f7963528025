//go:build !nowhatsapp

package whatsapp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/store"
)

// Linking for real needs a phone and WhatsApp's servers. These tests cover the rest: the
// command line, which adapter is linked, what people are told at each step, and how the wait
// for the phone ends, with a scripted client in whatsmeow's place.

func TestParseLinkArgs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want linkRequest
		err  string
	}{
		{args: []string{"./data"}, want: linkRequest{dataDir: "./data"}},
		{args: []string{"./data", "wa"}, want: linkRequest{dataDir: "./data", adapter: "wa"}},
		{args: []string{"--phone", "+43 123 4567", "./data"}, want: linkRequest{dataDir: "./data", phone: "431234567"}},
		{args: []string{"./data", "--phone=+1 (555) 010-9999", "wa"}, want: linkRequest{dataDir: "./data", adapter: "wa", phone: "15550109999"}},
		{args: []string{"./data", "wa", "-phone", "0043-664-1234567"}, want: linkRequest{dataDir: "./data", adapter: "wa", phone: "436641234567"}},
		{args: nil, err: "usage: mom whatsapp-link needs the data directory, as in mom whatsapp-link ./data"},
		{args: []string{"./data", "wa", "more"}, err: `usage: mom whatsapp-link takes the data directory and an adapter's name, got also "more"`},
		{args: []string{"./data", "--pone", "+431234567"}, err: "usage: flag provided but not defined: -pone"},
		{args: []string{"./data", "--phone"}, err: "usage: flag needs an argument: -phone"},
		{args: []string{"./data", "--phone", "0664 1234567"}, err: `usage: --phone takes the number in international form, like +431234567: "0664 1234567" has no country code`},
		{args: []string{"./data", "--phone", "+43 664 CALL-ME"}, err: `usage: --phone takes the number in international form, like +431234567: "+43 664 CALL-ME" is not one`},
		{args: []string{"./data", "--phone", "+0431234567"}, err: `is not one`},
		{args: []string{"./data", "--phone", "+43 12"}, err: `"+43 12" has 4 digits`},
		{args: []string{"./data", "--phone", "+43 1234 5678 9012 34"}, err: `has 16 digits`},
	}
	for _, tt := range tests {
		got, err := parseLinkArgs(tt.args)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("parseLinkArgs(%q) = %+v, %v; want %+v", tt.args, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.Is(err, platform.ErrUsage)):
			t.Errorf("parseLinkArgs(%q) = %v; want a usage error with %q", tt.args, err, tt.err)
		}
	}
}

// writeConfig makes a data directory whose config.json is text.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestChooseAdapter: the adapter named, or the only WhatsApp one; anything else is refused
// with the choices there are. Only the types are read, so another adapter's problems do not
// stop linking.
func TestChooseAdapter(t *testing.T) {
	t.Parallel()
	one := writeConfig(t, `{
	  // comments and trailing commas, as config.json allows
	  "adapters": {
	    "terminal": {"type": "cli"},
	    "acme": {"type": "slack", "botToken": "${UNSET_TOKEN}"},
	    "phone": {"type": "whatsapp", "prefix": "!"},
	  },
	}`)
	two := writeConfig(t, `{"adapters": {"wa-home": {"type": "whatsapp"}, "wa-work": {"type": "whatsapp"}, "acme": {"type": "slack"}}}`)
	none := writeConfig(t, `{"adapters": {"terminal": {"type": "cli"}}}`)
	broken := writeConfig(t, `{"adapters": {"wa": {"type": "whatsapp"}`)
	tests := []struct {
		dir, name, want, err string
	}{
		{dir: one, want: "phone"},
		{dir: one, name: "phone", want: "phone"},
		{dir: two, name: "wa-work", want: "wa-work"},
		{dir: two, err: "config.json has 2 WhatsApp adapters (wa-home, wa-work): name the one to link, as in mom whatsapp-link " + two + " wa-home"},
		{dir: two, name: "acme", err: `adapter acme in config.json is of type "slack", not "whatsapp"; its WhatsApp adapters are wa-home, wa-work`},
		{dir: one, name: "wa", err: "config.json has no adapter wa; its WhatsApp adapter is phone"},
		{dir: none, name: "wa", err: "config.json has no adapter wa; it has no WhatsApp adapter"},
		{dir: none, err: `config.json has no WhatsApp adapter to link; add one first, as in "adapters": {"whatsapp": {"type": "whatsapp"}}`},
		{dir: t.TempDir(), err: "config.json does not exist; run mom with the data directory once to create it, then add a WhatsApp adapter"},
		{dir: broken, err: "mom check " + broken + " says more"},
	}
	for _, tt := range tests {
		got, err := chooseAdapter(tt.dir, tt.name)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("chooseAdapter(%s, %q) = %q, %v; want %q", tt.dir, tt.name, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("chooseAdapter(%s, %q) = %q, %v; want an error with %q", tt.dir, tt.name, got, err, tt.err)
		}
	}
}

// TestLinkCommandAlreadyLinked: an adapter whose device is linked already is left as it is,
// and the command says with which number and how to link another.
func TestLinkCommandAlreadyLinked(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"adapters": {"wa": {"type": "whatsapp"}}}`)
	d := connect(t, openStore(t, dir), "wa")
	linkFake(t, d, "431234567")
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := linkCommand().Run(context.Background(), []string{dir}, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Adapter wa is linked to +431234567 already", "Linked devices", "mom whatsapp-link again"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := linkCommand().Run(context.Background(), []string{dir, "other"}, io.Discard); err == nil || !strings.Contains(err.Error(), "no adapter other") {
		t.Errorf("an adapter not in config.json: %v", err)
	}
}

// TestLinkCommandRefusesWhileMomRuns: linking while a mom works on the data directory would
// give the device's store two writers; the command says to stop mom first, and touches nothing.
func TestLinkCommandRefusesWhileMomRuns(t *testing.T) {
	t.Parallel()
	dir := writeConfig(t, `{"adapters": {"wa": {"type": "whatsapp"}}}`)
	unlock, err := store.Lock(dir) // as a running mom holds it
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	err = linkCommand().Run(context.Background(), []string{dir}, io.Discard)
	if !errors.Is(err, store.ErrInUse) || !strings.Contains(err.Error(), "link with mom stopped") {
		t.Errorf("linking beside a running mom: %v", err)
	}
	if _, err := os.Stat(DevicePath(dir, "wa")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the device store was touched: %v", err)
	}
}

// scriptedPhone stands in for whatsmeow's client while linking: when mom connects, script
// plays what WhatsApp and the phone would do, through the QR channel and the event handler.
type scriptedPhone struct {
	script     func(p *scriptedPhone)
	connectErr error
	pairCode   string
	pairErr    error

	codes   chan whatsmeow.QRChannelItem
	handler whatsmeow.EventHandlerWithSuccessStatus
	done    sync.WaitGroup

	mu           sync.Mutex
	paired       []string // the numbers pairing codes were asked for
	disconnected bool
}

func (p *scriptedPhone) GetQRChannel(context.Context) (<-chan whatsmeow.QRChannelItem, error) {
	p.codes = make(chan whatsmeow.QRChannelItem, 8)
	return p.codes, nil
}

func (p *scriptedPhone) AddEventHandlerWithSuccessStatus(h whatsmeow.EventHandlerWithSuccessStatus) uint32 {
	p.handler = h
	return 1
}

func (p *scriptedPhone) Connect() error {
	if p.connectErr != nil {
		return p.connectErr
	}
	p.done.Add(1)
	go func() {
		defer p.done.Done()
		p.script(p)
	}()
	return nil
}

func (p *scriptedPhone) Disconnect() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.disconnected = true
}

func (p *scriptedPhone) PairPhone(_ context.Context, phone string, push bool, kind whatsmeow.PairClientType, display string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !push || kind != whatsmeow.PairClientChrome || display != "Chrome (Linux)" {
		return "", errors.New("WhatsApp takes only a common browser's name")
	}
	p.paired = append(p.paired, phone)
	return p.pairCode, p.pairErr
}

// code is the nth QR code WhatsApp hands out.
func code(n int) whatsmeow.QRChannelItem {
	return whatsmeow.QRChannelItem{Event: whatsmeow.QRChannelEventCode, Code: strings.Repeat("2@code", n), Timeout: 20 * time.Second}
}

var linked = types.JID{User: "431234567", Device: 12, Server: types.DefaultUserServer}

// accept is the phone accepting: whatsmeow's PairSuccess, the end of the codes, and the first
// connection as the linked device.
func accept(p *scriptedPhone) {
	p.handler(&events.PairSuccess{ID: linked})
	p.codes <- whatsmeow.QRChannelSuccess
	close(p.codes)
	p.handler(&events.Connected{})
}

// pair runs a pairing against p and returns its number, error and output.
func pair(t *testing.T, p *scriptedPhone, phone string) (types.JID, error, string) {
	t.Helper()
	var out bytes.Buffer
	jid, err := pairing{cli: p, out: &out, phone: phone, settle: time.Minute}.run(context.Background())
	p.done.Wait()
	if p.connectErr == nil && !p.disconnected {
		t.Error("the connection was left open")
	}
	return jid, err, out.String()
}

// TestPairByQR: each code WhatsApp hands out is drawn with what to do; once the phone accepts
// and the device has connected, the number is known.
func TestPairByQR(t *testing.T) {
	t.Parallel()
	p := &scriptedPhone{script: func(p *scriptedPhone) {
		p.codes <- code(1)
		p.codes <- code(2)
		accept(p)
	}}
	jid, err, out := pair(t, p, "")
	if err != nil || jid != linked {
		t.Fatalf("pairing = %s, %v\n%s", jid, err, out)
	}
	var first, second bytes.Buffer
	_ = drawQR(&first, code(1).Code)
	_ = drawQR(&second, code(2).Code)
	for _, want := range []string{"WhatsApp → Settings → Linked devices → Link a device", first.String(),
		"The code changed", second.String(), "This code is good for 20s", "--phone"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if len(p.paired) != 0 {
		t.Errorf("asked for pairing codes: %q", p.paired)
	}
}

// TestPairByPhone: with a number, a pairing code is asked for once the connection stands
// (after the first QR code), shown instead of the codes, and the phone types it in.
func TestPairByPhone(t *testing.T) {
	t.Parallel()
	p := &scriptedPhone{pairCode: "ABCD-EFGH", script: func(p *scriptedPhone) {
		p.codes <- code(1)
		p.codes <- code(2)
		accept(p)
	}}
	jid, err, out := pair(t, p, "431234567")
	if err != nil || jid != linked {
		t.Fatalf("pairing = %s, %v\n%s", jid, err, out)
	}
	if len(p.paired) != 1 || p.paired[0] != "431234567" {
		t.Errorf("pairing codes asked for %q; want one, for 431234567", p.paired)
	}
	for _, want := range []string{"On the phone of +431234567", "Link with phone number instead", "    ABCD-EFGH\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "█") {
		t.Errorf("a QR code was drawn too:\n%s", out)
	}
}

// TestPairFails: each way linking can end without a link says what happened and what to do.
func TestPairFails(t *testing.T) {
	t.Parallel()
	end := func(items ...whatsmeow.QRChannelItem) func(*scriptedPhone) {
		return func(p *scriptedPhone) {
			p.codes <- code(1)
			for _, it := range items {
				p.codes <- it
			}
			close(p.codes)
		}
	}
	tests := []struct {
		name  string
		p     *scriptedPhone
		phone string
		want  string
	}{
		{"offline", &scriptedPhone{connectErr: errors.New("dial tcp: no route to host")}, "", "could not reach WhatsApp: dial tcp: no route to host"},
		{"codes ran out", &scriptedPhone{script: end(whatsmeow.QRChannelTimeout)}, "", "no phone linked mom in time"},
		{"pairing failed", &scriptedPhone{script: end(whatsmeow.QRChannelItem{Event: whatsmeow.QRChannelEventError, Error: errors.New("invalid device signature")})}, "",
			"the phone accepted, but linking failed: invalid device signature"},
		{"outdated", &scriptedPhone{script: end(whatsmeow.QRChannelClientOutdated)}, "", "outdated; update mom"},
		{"unexpected", &scriptedPhone{script: end(whatsmeow.QRChannelErrUnexpectedEvent)}, "", "start mom to see what it says"},
		{"closed", &scriptedPhone{script: end()}, "", "WhatsApp closed the connection before the phone linked mom"},
		{"no pairing code", &scriptedPhone{pairErr: errors.New("bad request"), script: end()}, "436641234567", "WhatsApp gave no pairing code for +436641234567: bad request"},
		{"logged out at once", &scriptedPhone{script: func(p *scriptedPhone) {
			p.handler(&events.PairSuccess{ID: linked})
			p.codes <- whatsmeow.QRChannelSuccess
			p.handler(&events.LoggedOut{OnConnect: true, Reason: events.ConnectFailureLoggedOut})
		}}, "", "the phone linked mom, then logged it out again"},
		{"banned", &scriptedPhone{script: func(p *scriptedPhone) {
			p.handler(&events.PairSuccess{ID: linked})
			p.codes <- whatsmeow.QRChannelSuccess
			p.handler(&events.TemporaryBan{Code: events.TempBanSentToTooManyPeople, Expire: time.Hour})
		}}, "", "WhatsApp refused the connection: You've been temporarily banned"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err, out := pair(t, tt.p, tt.phone)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v; want %q\n%s", err, tt.want, out)
			}
		})
	}
}

// TestPairSettles: when the first connection as the linked device does not come in time, the
// device is linked all the same (mom connects it later) if WhatsApp said to which number.
func TestPairSettles(t *testing.T) {
	t.Parallel()
	for _, known := range []bool{true, false} {
		p := &scriptedPhone{script: func(p *scriptedPhone) {
			p.codes <- code(1)
			if known {
				p.handler(&events.PairSuccess{ID: linked})
			}
			p.codes <- whatsmeow.QRChannelSuccess
		}}
		var out bytes.Buffer
		jid, err := pairing{cli: p, out: &out, settle: time.Millisecond}.run(context.Background())
		p.done.Wait()
		if known && (err != nil || jid != linked) {
			t.Errorf("linked without the first connection: %s, %v", jid, err)
		}
		if !known && (err == nil || !strings.Contains(err.Error(), "did not say which number")) {
			t.Errorf("linked to no number: %s, %v", jid, err)
		}
	}
}

// TestPairLeavesMessages: messages that arrive while linking are not acknowledged, so that
// WhatsApp delivers them again to mom, which logs them; other events are taken.
func TestPairLeavesMessages(t *testing.T) {
	t.Parallel()
	var took, refused bool
	p := &scriptedPhone{script: func(p *scriptedPhone) {
		p.handler(&events.PairSuccess{ID: linked})
		p.codes <- whatsmeow.QRChannelSuccess
		refused = !p.handler(&events.Message{})
		took = p.handler(&events.Receipt{})
		p.handler(&events.Connected{})
	}}
	if _, err, out := pair(t, p, ""); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !refused || !took {
		t.Errorf("a message was acknowledged (%v) or a receipt refused (%v)", !refused, !took)
	}
}
