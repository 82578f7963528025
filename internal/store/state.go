package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// stateDir is where channels' settings made in the chat live (`/model`): in the data
// directory, beside the workspace, so no command can change them.
const stateDir = "state"

// maxState bounds a channel's state file: it holds a few short settings.
const maxState = 64 << 10

// ChannelState is what people set for a channel in the chat, kept across restarts:
// <data>/state/<adapter>/<channel>.json.
type ChannelState struct {
	// Model names the model entry the channel's runs use (`/model`), overriding
	// config.json; "" leaves it to config.json.
	Model string `json:"model,omitempty"`
	// ModelBy and ModelAt say who set Model, and when.
	ModelBy string    `json:"modelBy,omitempty"`
	ModelAt time.Time `json:"modelAt,omitzero"`
}

// State returns the channel's settings made in the chat; none when nothing was set.
func (c *ChannelDir) State() (ChannelState, error) {
	dir, name, err := c.store.hostFile(stateDir, c.adapter, c.id, ".json")
	if err != nil {
		return ChannelState{}, err
	}
	data, err := dir.ReadFile(name, maxState)
	if errors.Is(err, fs.ErrNotExist) {
		return ChannelState{}, nil
	}
	if err != nil {
		return ChannelState{}, fmt.Errorf("read the settings of channel %s: %w", c.Key(), err)
	}
	var st ChannelState
	if err := json.Unmarshal(data, &st); err != nil {
		return ChannelState{}, fmt.Errorf("the settings of channel %s in %s are damaged (%v); fix or delete the file", c.Key(), dir.Path(), err)
	}
	return st, nil
}

// SetState replaces the channel's settings made in the chat; the file is replaced whole, so a
// crash leaves the old settings or the new, never half of them.
func (c *ChannelDir) SetState(st ChannelState) error {
	dir, name, err := c.store.hostFile(stateDir, c.adapter, c.id, ".json")
	if err != nil {
		return err
	}
	if err := dir.MkdirAll("", 0o700); err != nil {
		return fmt.Errorf("create the directory of channel settings: %w", err)
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := dir.WriteFile(name, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("save the settings of channel %s: %w", c.Key(), err)
	}
	return nil
}
