//go:build !nowhatsapp

package whatsapp

// This file stands in for wa-core's platform.go until it is merged: the lead deletes it then.
// platform.go's Platform must keep linkCommand in its Commands.

import (
	"context"
	"errors"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is WhatsApp's "type" in config.json.
const Kind platform.Kind = "whatsapp"

// Platform is WhatsApp as mom's registry of platforms knows it (pending: its adapter does
// not connect yet).
func Platform() platform.Spec {
	return platform.Spec{
		Name: "WhatsApp",
		Config: config.Platform{
			Type:   string(Kind),
			Keys:   []string{"prefix", "verbosity", "historyDays"},
			UserID: "+431234567",
			Groups: &config.Groups{Default: config.GroupPolicy{WhereAdmins: true}, Example: "120363012345678901@g.us", Word: "group"},
			Decode: func(o *config.Object) config.Options { return pendingOptions{} },
		},
		New: func(e config.AdapterEntry, _ platform.Env) (chat.Adapter, error) {
			return pendingAdapter{name: e.Name}, nil
		},
		Commands: []platform.Command{linkCommand()},
	}
}

// pendingOptions are the settings of a pending entry: none yet.
type pendingOptions struct{}

func (pendingOptions) Describe() string { return "" }

// pendingAdapter builds but does not start.
type pendingAdapter struct{ name string }

func (a pendingAdapter) Name() string { return a.name }
func (a pendingAdapter) Start(context.Context, chat.Inbox) error {
	return errors.New("the WhatsApp adapter is not in this build yet")
}
func (pendingAdapter) Stop(context.Context) error { return nil }
func (pendingAdapter) Directory() chat.Directory  { return chat.Directory{} }
func (pendingAdapter) Surface() chat.Surface      { return nil }
func (pendingAdapter) Dialect() chat.Dialect      { return chat.Dialect{} }
