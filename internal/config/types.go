package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tailscale/hujson"
)

// AdapterTypes reads the type of each adapter in the config file at path, by name, without
// checking the rest or expanding ${VAR}s: for commands that need to know what an adapter is
// while its tokens may not be in the environment (mom whatsapp-link, mom import). A file
// that does not exist is an error that errors.Is finds as fs.ErrNotExist.
func AdapterTypes(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return ParseAdapterTypes(data, path)
}

// ParseAdapterTypes is AdapterTypes for config data; path names it in errors.
func ParseAdapterTypes(data []byte, path string) (map[string]string, error) {
	var c struct {
		Adapters map[string]struct {
			Type string `json:"type"`
		} `json:"adapters"`
	}
	if err := peek(data, path, &c); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(c.Adapters))
	for n, a := range c.Adapters {
		out[n] = a.Type
	}
	return out, nil
}

// peek decodes into v the parts of config data that v names, without checking the rest or
// expanding ${VAR}s; path names the data in errors.
func peek(data []byte, path string, v any) error {
	std, err := hujson.Standardize(data)
	if err == nil {
		err = json.Unmarshal(std, v)
	}
	if err != nil {
		return fmt.Errorf("%s: %w (mom check %s says more)", path, err, filepath.Dir(path))
	}
	return nil
}
