//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/types/events"

	"github.com/mom-agent/mom/internal/adapter/platform"
)

// linkPause is the first wait after a failed attempt to link in the background (WhatsApp out
// of reach); it doubles up to maxPause.
const linkPause = 5 * time.Second

// ShowLinkCodes links the device in the background when it is not linked, and reports whether
// it does (internal/app's linker: the app calls it when an adapter can show the codes, the web
// chat). It connects unlinked, as `mom whatsapp-link` does, and hands each QR code WhatsApp
// gives to show, as a card with the code's image, until a phone scans one; WhatsApp renews the
// code every 20 seconds or so, and once it has given its last, mom asks again. When the phone
// has linked mom, done hears with which number, and the adapter carries on as that device,
// without a restart. Both are called on a goroutine of the adapter's, which Stop ends.
func (a *Adapter) ShowLinkCodes(show func(platform.Card), done func(text string)) bool {
	a.mu.Lock()
	c, ctx := a.client, a.ctx
	unlinked := c != nil && !a.conn.linked && !a.conn.loggedOut && !a.stopping
	a.mu.Unlock()
	if !unlinked {
		return false
	}
	a.run.Go(func() { a.linkInBackground(ctx, c, show, done) })
	return true
}

// linkInBackground shows rounds of codes until the device is linked or ctx ends.
func (a *Adapter) linkInBackground(ctx context.Context, c Client, show func(platform.Card), done func(string)) {
	pause := linkPause
	for ctx.Err() == nil {
		linked, err := a.linkRound(ctx, c, show)
		switch {
		case linked:
			self, _, _ := c.Self()
			done("Linked: mom answers as " + phoneOf(self) + " on WhatsApp.")
			return
		case errors.Is(err, errLinkGiveUp):
			a.log.Error("mom cannot link this WhatsApp adapter from the web chat", "err", err, "adapter", a.opts.Name)
			done(err.Error())
			return
		case err != nil && ctx.Err() == nil:
			a.log.Warn("could not show a code to link WhatsApp; trying again", "err", err, "in", pause)
			if !sleep(ctx, pause) {
				return
			}
			pause = min(2*pause, maxPause)
		default:
			pause = linkPause // nobody scanned the codes in time: new ones, at once
		}
	}
}

// errLinkGiveUp marks what trying again cannot mend.
var errLinkGiveUp = errors.New("linking stopped")

// linkRound connects unlinked and shows the codes WhatsApp gives, until a phone links mom
// (linked), the codes run out (neither), or something fails.
func (a *Adapter) linkRound(ctx context.Context, c Client, show func(platform.Card)) (linked bool, err error) {
	codes, err := c.GetQRChannel(ctx)
	if err != nil {
		return false, fmt.Errorf("preparing to link: %w", err)
	}
	if err := c.Connect(); err != nil {
		return false, fmt.Errorf("could not reach WhatsApp: %w", err)
	}
	for {
		var item whatsmeow.QRChannelItem
		var open bool
		select {
		case item, open = <-codes:
		case <-ctx.Done():
			c.Disconnect()
			return false, ctx.Err()
		}
		switch {
		case !open, item == whatsmeow.QRChannelTimeout:
			c.Disconnect() // whatsmeow does too, but maybe not before the next round asks
			return false, nil
		case item.Event == whatsmeow.QRChannelEventCode:
			card, err := a.linkCard(item)
			if err != nil {
				c.Disconnect()
				return false, err
			}
			show(card)
		case item == whatsmeow.QRChannelSuccess:
			return true, nil // whatsmeow connects anew as the linked device (events.PairSuccess)
		case item.Event == whatsmeow.QRChannelEventError:
			c.Disconnect()
			return false, fmt.Errorf("the phone scanned the code, but linking failed: %w", item.Error)
		case item == whatsmeow.QRChannelScannedWithoutMultidevice:
			a.log.Warn("a phone scanned the code to link WhatsApp, but has linked devices turned off: update WhatsApp on it, then scan again")
		case item == whatsmeow.QRChannelClientOutdated:
			c.Disconnect()
			return false, fmt.Errorf("%w: WhatsApp refuses this version of mom's WhatsApp library as outdated; update mom", errLinkGiveUp)
		default:
			c.Disconnect()
			return false, fmt.Errorf("%w: WhatsApp answered %q; start mom again, or run %s", errLinkGiveUp, item.Event, a.linkCommand())
		}
	}
}

// linkCard is the card that shows a code to link the device.
func (a *Adapter) linkCard(item whatsmeow.QRChannelItem) (platform.Card, error) {
	img, err := qrImage(item.Code)
	if err != nil {
		return platform.Card{}, err
	}
	return platform.Card{
		Title: "Link WhatsApp (" + a.opts.Name + ")",
		Text: "Scan this code with the phone of the number mom should answer as: " +
			"**WhatsApp → Settings → Linked devices → Link a device**. WhatsApp renews the code every " +
			"20 seconds or so, and this card shows the newest. Without a camera at hand, run `" +
			a.linkCommand() + " --phone +<number>` with mom stopped, for a code to type.",
		Image: img,
	}, nil
}

// onLinked notes that a phone has linked the device (from the web chat's codes): the adapter
// answers as that number from now on, and keeps the connection up as after a start.
func (a *Adapter) onLinked(e *events.PairSuccess) {
	a.mu.Lock()
	if a.conn.linked || a.stopping {
		a.mu.Unlock()
		return
	}
	a.self, a.conn.linked = e.ID.ToNonAD(), true
	if _, name, ok := a.client.Self(); ok {
		a.name = name
	}
	ctx := a.ctx
	a.mu.Unlock()
	a.log.Info("a phone linked this WhatsApp adapter: mom answers as "+phoneOf(e.ID), "adapter", a.opts.Name)
	a.run.Go(func() { a.supervise(ctx) })
}
