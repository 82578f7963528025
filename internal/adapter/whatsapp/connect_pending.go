//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"

	"github.com/mom-agent/mom/internal/adapter/platform"
)

// Connect stands in for device.go's, which opens the linked device's store and returns the
// connection over it; the lead deletes this file when the two branches meet.
func Connect(ctx context.Context, name string, env platform.Env) (Client, error) {
	return nil, errors.New("pending")
}
