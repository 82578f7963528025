package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// templateText is embedded as a string so nobody can change it at run time.
//
//go:embed template.jsonc
var templateText string

// Template returns the commented config.json written on first run. It starts the terminal
// and the web chat, so a new user can talk to mom, at the keyboard or in a browser, before
// setting up any platform, and shows the other options as comments.
func Template() string { return templateText }

// TemplateWritten is what mom says once it has written the template to path: what it starts,
// and what else it shows how to add. It lives beside the template because it describes it.
func TemplateWritten(path string) string {
	return fmt.Sprintf("Created %s with the terminal and the web chat enabled. Edit it to add Slack, Discord or Telegram.", path)
}

// FileName is the name of the config file inside the data directory.
const FileName = "config.json"

// EnsureDir makes sure dataDir holds a config.json. When it does not, EnsureDir creates the
// directory and writes Template() there, readable by the owner only because it will hold
// tokens, and reports created. An existing file is never touched, even if two mom processes
// start at once.
func EnsureDir(dataDir string) (created bool, err error) {
	path := filepath.Join(dataDir, FileName)
	if _, err := os.Stat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("checking for %s: %w", path, err)
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return false, fmt.Errorf("creating the data directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("creating %s: %w", path, err)
	}
	if _, err := f.WriteString(templateText); err != nil {
		f.Close()
		os.Remove(path)
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return false, fmt.Errorf("writing %s: %w", path, err)
	}
	return true, nil
}
