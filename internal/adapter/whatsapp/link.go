//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// linkCommand is `mom whatsapp-link <data-dir> [adapter] [--phone +431234567]`: link a phone's
// WhatsApp account to an adapter of config.json, by a QR code drawn in the terminal or, with
// --phone, a pairing code to type into the phone. It waits until the phone has linked mom,
// says with which number, and exits; mom itself then connects as that device.
func linkCommand() platform.Command {
	return platform.Command{
		Name:    "whatsapp-link",
		Args:    "<data-dir> [adapter]",
		Summary: "link a WhatsApp number: QR code, or --phone +43… for a pairing code",
		Run: func(ctx context.Context, args []string, out io.Writer) error {
			req, err := parseLinkArgs(args)
			if err != nil {
				return err
			}
			name, err := chooseAdapter(req.dataDir, req.adapter)
			if err != nil {
				return err
			}
			return link(ctx, req.dataDir, name, req.phone, out)
		},
	}
}

// linkRequest is what `mom whatsapp-link` was asked.
type linkRequest struct {
	dataDir string
	// adapter is the adapter named on the command line; "" for the only WhatsApp one.
	adapter string
	// phone is --phone's number in digits, with the country code and no "+"; "" for a QR code.
	phone string
}

// parseLinkArgs reads the command line after `mom whatsapp-link`. Flags may come before,
// between or after the data directory and the adapter, as with mom's other commands.
func parseLinkArgs(args []string) (linkRequest, error) {
	fs := flag.NewFlagSet("mom whatsapp-link", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	phone := fs.String("phone", "", "link with a pairing code sent to this number instead of a QR code")
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return linkRequest{}, fmt.Errorf("%w: %v", platform.ErrUsage, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	switch {
	case len(pos) == 0:
		return linkRequest{}, fmt.Errorf("%w: mom whatsapp-link needs the data directory, as in mom whatsapp-link ./data", platform.ErrUsage)
	case len(pos) > 2:
		return linkRequest{}, fmt.Errorf("%w: mom whatsapp-link takes the data directory and an adapter's name, got also %q", platform.ErrUsage, pos[2])
	}
	req := linkRequest{dataDir: pos[0]}
	if len(pos) == 2 {
		req.adapter = pos[1]
	}
	if *phone != "" {
		n, err := phoneDigits(*phone)
		if err != nil {
			return linkRequest{}, fmt.Errorf("%w: --phone %s", platform.ErrUsage, err)
		}
		req.phone = n
	}
	return req, nil
}

// phoneDigits is a phone number written in international form ("+43 123 4567", "+1
// (555) 010-9999") as WhatsApp takes it for a pairing code: the digits alone, country code
// first.
func phoneDigits(s string) (string, error) {
	n := strings.Map(func(r rune) rune {
		if strings.ContainsRune(" -().\u00a0", r) {
			return -1
		}
		return r
	}, s)
	const form = "takes the number in international form, like +431234567"
	switch {
	case strings.HasPrefix(n, "+"):
		n = n[1:]
	case strings.HasPrefix(n, "00"):
		n = n[2:]
	default:
		return "", fmt.Errorf("%s: %q has no country code", form, s)
	}
	if strings.Trim(n, "0123456789") != "" || strings.HasPrefix(n, "0") {
		return "", fmt.Errorf("%s: %q is not one", form, s)
	}
	// E.164 numbers have at most 15 digits; WhatsApp refuses fewer than 7.
	if len(n) < 7 || len(n) > 15 {
		return "", fmt.Errorf("%s: %q has %d digits", form, s, len(n))
	}
	return n, nil
}

// chooseAdapter is the WhatsApp adapter of config.json in dataDir that `mom whatsapp-link`
// links: the one named, or else the only one. Only the adapters' types are read, so that a
// problem elsewhere in the file (another adapter's token not set yet) does not stand in the
// way of linking; `mom check` and mom itself report those.
func chooseAdapter(dataDir, name string) (string, error) {
	kinds, err := adapterTypes(filepath.Join(dataDir, "config.json"))
	if err != nil {
		return "", err
	}
	var wa []string
	for n, t := range kinds {
		if t == string(Kind) {
			wa = append(wa, n)
		}
	}
	slices.Sort(wa)
	example := `"adapters": {"whatsapp": {"type": "whatsapp"}}`
	switch {
	case name != "" && kinds[name] == string(Kind):
		return name, nil
	case name != "" && kinds[name] != "":
		return "", fmt.Errorf("adapter %s in config.json is of type %q, not %q%s", name, kinds[name], Kind, choices(wa))
	case name != "":
		return "", fmt.Errorf("config.json has no adapter %s%s", name, choices(wa))
	case len(wa) == 1:
		return wa[0], nil
	case len(wa) == 0:
		return "", fmt.Errorf("config.json has no WhatsApp adapter to link; add one first, as in %s", example)
	default:
		return "", fmt.Errorf("config.json has %d WhatsApp adapters (%s): name the one to link, as in mom whatsapp-link %s %s",
			len(wa), strings.Join(wa, ", "), dataDir, wa[0])
	}
}

// choices names the WhatsApp adapters there are, for a message about one that is not.
func choices(wa []string) string {
	switch len(wa) {
	case 0:
		return "; it has no WhatsApp adapter"
	case 1:
		return "; its WhatsApp adapter is " + wa[0]
	default:
		return "; its WhatsApp adapters are " + strings.Join(wa, ", ")
	}
}

// adapterTypes reads the type of each adapter in the config file at path.
func adapterTypes(path string) (map[string]string, error) {
	types, err := config.AdapterTypes(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist; run mom with the data directory once to create it, then add a WhatsApp adapter", path)
	}
	return types, err
}

// link links the adapter called name in dataDir to a phone: by pairing code when phone is
// set, else by QR code, with what to do written to out.
func link(ctx context.Context, dataDir, name, phone string, out io.Writer) error {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return fmt.Errorf("data directory %s: %w", dataDir, err)
	}
	// A running mom holds the device's store too: two writers would leave it with two devices.
	unlock, err := store.Lock(abs)
	if errors.Is(err, store.ErrInUse) {
		return fmt.Errorf("%w\n(link with mom stopped: stop it, run mom whatsapp-link, and start it again)", err)
	}
	if err != nil {
		return err
	}
	defer unlock()
	discard := slog.New(slog.DiscardHandler)
	db, dev, err := openDevice(ctx, abs, name, discard)
	if err != nil {
		return err
	}
	defer db.Close()
	if dev.ID != nil {
		fmt.Fprintf(out, "Adapter %s is linked to %s already: mom answers as that number.\n"+
			"To link another one, remove mom under WhatsApp → Settings → Linked devices on that phone, start mom once\n"+
			"(it sets the old device store aside), and run mom whatsapp-link again.\n", name, phoneOf(*dev.ID))
		return nil
	}
	cli := newClient(dev, discard)
	// What the phone sends right after linking — the history it shares, messages that waited —
	// is for mom to log, not for this command: it leaves them unread (see pairing).
	cli.ManualHistorySyncDownload = true
	jid, err := pairing{cli: cli, out: out, phone: phone, settle: time.Minute}.run(ctx)
	if err != nil {
		return fmt.Errorf("linking adapter %s: %w", name, err)
	}
	fmt.Fprintf(out, "\nLinked: adapter %s answers as %s on WhatsApp. Start mom with mom %s\n", name, phoneOf(jid), dataDir)
	return nil
}

// phoneOf is the phone number of a WhatsApp user, as people write it.
func phoneOf(jid types.JID) string {
	if jid.Server == types.DefaultUserServer {
		return "+" + jid.User
	}
	return jid.ToNonAD().String()
}

// pairer is what linking uses of a WhatsApp client: *whatsmeow.Client, or a script in tests.
type pairer interface {
	GetQRChannel(ctx context.Context) (<-chan whatsmeow.QRChannelItem, error)
	AddEventHandlerWithSuccessStatus(handler whatsmeow.EventHandlerWithSuccessStatus) uint32
	Connect() error
	Disconnect()
	PairPhone(ctx context.Context, phone string, showPushNotification bool, clientType whatsmeow.PairClientType, clientDisplayName string) (string, error)
}

// pairing is one attempt to link a device: connect unlinked, show the codes WhatsApp gives
// (or ask for a pairing code), and wait for the phone.
type pairing struct {
	cli pairer
	out io.Writer
	// phone, when set, asks WhatsApp for a pairing code for this number (digits only)
	// instead of showing QR codes.
	phone string
	// settle is how long to wait, after the phone accepted, for the first connection as the
	// linked device, which completes the link on WhatsApp's side.
	settle time.Duration
}

// run links the device and returns the number it is linked to.
func (p pairing) run(ctx context.Context) (types.JID, error) {
	news := make(chan any, 16)
	p.cli.AddEventHandlerWithSuccessStatus(func(evt any) bool {
		switch evt.(type) {
		case *events.Message:
			// Not acknowledged, so WhatsApp delivers it again to mom itself, which logs it;
			// whatsmeow keeps the decrypted message in the store for then.
			return false
		case *events.PairSuccess, *events.Connected, *events.LoggedOut, *events.ConnectFailure, *events.TemporaryBan:
			select {
			case news <- evt:
			default:
			}
		}
		return true
	})
	codes, err := p.cli.GetQRChannel(ctx)
	if err != nil {
		return types.JID{}, fmt.Errorf("preparing to link: %w", err)
	}
	if err := p.cli.Connect(); err != nil {
		return types.JID{}, fmt.Errorf("could not reach WhatsApp: %w", err)
	}
	defer p.cli.Disconnect()
	if err := p.show(ctx, codes); err != nil {
		return types.JID{}, err
	}
	return p.settled(ctx, news)
}

// show shows each code WhatsApp gives until the phone accepts one; with a phone number it
// asks for a pairing code once the connection stands, instead.
func (p pairing) show(ctx context.Context, codes <-chan whatsmeow.QRChannelItem) error {
	n := 0
	for {
		var item whatsmeow.QRChannelItem
		var open bool
		select {
		case item, open = <-codes:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !open {
			return errors.New("WhatsApp closed the connection before the phone linked mom; run mom whatsapp-link again")
		}
		switch item.Event {
		case whatsmeow.QRChannelEventCode:
			n++
			if err := p.code(ctx, n, item); err != nil {
				return err
			}
		case whatsmeow.QRChannelSuccess.Event:
			return nil
		case whatsmeow.QRChannelTimeout.Event:
			return errors.New("no phone linked mom in time (WhatsApp gives about two and a half minutes); run mom whatsapp-link again")
		case whatsmeow.QRChannelEventError:
			return fmt.Errorf("the phone accepted, but linking failed: %w", item.Error)
		case whatsmeow.QRChannelClientOutdated.Event:
			return errors.New("WhatsApp refuses this version of mom's WhatsApp library as outdated; update mom")
		case whatsmeow.QRChannelScannedWithoutMultidevice.Event:
			fmt.Fprintln(p.out, "The phone scanned the code but has linked devices turned off: update WhatsApp on it, then scan again.")
		case whatsmeow.QRChannelErrUnexpectedEvent.Event:
			return errors.New("WhatsApp answered as if this device were linked or banned already; start mom to see what it says")
		default:
			return fmt.Errorf("WhatsApp ended the link with %q", item.Event)
		}
	}
}

// code shows the nth code WhatsApp gave, or, with a phone number, asks for a pairing code
// once the first has come (then the connection stands) and ignores the rest.
func (p pairing) code(ctx context.Context, n int, item whatsmeow.QRChannelItem) error {
	if p.phone != "" {
		if n > 1 {
			return nil
		}
		code, err := p.cli.PairPhone(ctx, p.phone, true, whatsmeow.PairClientChrome, "Chrome (Linux)")
		if err != nil {
			return fmt.Errorf("WhatsApp gave no pairing code for +%s: %w", p.phone, err)
		}
		fmt.Fprintf(p.out, "On the phone of +%s, open the notification from WhatsApp, or go to\n"+
			"WhatsApp → Settings → Linked devices → Link a device → Link with phone number instead,\n"+
			"and enter this code within two minutes:\n\n    %s\n\nWaiting for the phone…\n", p.phone, code)
		return nil
	}
	if n == 1 {
		fmt.Fprintln(p.out, "Scan this code with the phone of the number mom should answer as:\n"+
			"WhatsApp → Settings → Linked devices → Link a device.")
	} else {
		fmt.Fprintf(p.out, "\nThe code changed (WhatsApp renews it); scan this one:\n")
	}
	fmt.Fprintln(p.out)
	if err := drawQR(p.out, item.Code); err != nil {
		return err
	}
	fmt.Fprintf(p.out, "\nThis code is good for %s. Can't scan it? Run mom whatsapp-link with --phone +<your number> for a code to type.\n",
		item.Timeout.Round(time.Second))
	return nil
}

// settled waits, after the phone accepted, for the first connection as the linked device,
// and returns the number it is linked to.
func (p pairing) settled(ctx context.Context, news <-chan any) (types.JID, error) {
	var jid types.JID
	timer := time.NewTimer(p.settle)
	defer timer.Stop()
	for {
		// What has come already counts before the timer and ctx.
		var evt any
		select {
		case evt = <-news:
		default:
			select {
			case evt = <-news:
			case <-timer.C:
				if jid.IsEmpty() {
					return jid, errors.New("the phone accepted, but WhatsApp did not say which number it linked; run mom whatsapp-link again")
				}
				// The device is linked and saved; mom completes the first connection itself.
				return jid, nil
			case <-ctx.Done():
				return jid, ctx.Err()
			}
		}
		switch evt := evt.(type) {
		case *events.PairSuccess:
			jid = evt.ID
		case *events.Connected:
			if !jid.IsEmpty() {
				return jid, nil
			}
		case *events.LoggedOut:
			return jid, fmt.Errorf("the phone linked mom, then logged it out again (%s)", evt.Reason)
		case *events.TemporaryBan:
			return jid, fmt.Errorf("WhatsApp refused the connection: %s", evt)
		case *events.ConnectFailure:
			return jid, fmt.Errorf("WhatsApp refused the first connection as the linked device: %s (%d)", evt.Message, evt.Reason)
		}
	}
}
