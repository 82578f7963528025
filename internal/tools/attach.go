package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"

	"github.com/mom-agent/mom/internal/chat"
)

const attachDescription = `Share a file with the people in this conversation: it is uploaded to the current chat. Use it to send images, documents, or anything you produced that they should have as a file rather than as text.`

const attachSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"path": {"type": "string", "description": "Path of the file to share, absolute or relative to your working directory."},
		"title": {"type": "string", "description": "Title shown in the chat. Default: the file's name."}
	},
	"required": ["label", "path"],
	"additionalProperties": false
}`

// Attach uploads a file to the current channel (pi's attach tool).
type Attach struct{ definition }

// NewAttach returns the attach tool.
func NewAttach() *Attach {
	return &Attach{mustDefine("attach", attachDescription, attachSchema)}
}

type attachArgs struct {
	Path  string `json:"path"`
	Title string `json:"title"`
}

// Run opens the file through the executor, which checks where it really is, and hands that
// very descriptor to env.Upload: a command cannot swap the file for a link to config.json
// between the check and the upload, because the upload never opens a path again.
func (a *Attach) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	if env.Upload == nil {
		return Result{}, errors.New("attaching files is not supported here")
	}
	var args attachArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	p := resolvePath(env.Cwd, args.Path)
	f, err := env.Exec.OpenHost(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Result{}, fmt.Errorf("File not found: %s", args.Path)
	case err != nil:
		return Result{}, fmt.Errorf("cannot attach %s: %w", args.Path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return Result{}, fmt.Errorf("cannot attach %s: %w", args.Path, err)
	case !fi.Mode().IsRegular():
		return Result{}, fmt.Errorf("cannot attach %s: it is not a regular file", args.Path)
	}
	name := path.Base(p)
	title := args.Title
	if title == "" {
		title = name
	}
	file := chat.File{Name: name, Content: f, Size: fi.Size(), Path: f.Name(), Title: title}
	if err := env.Upload(ctx, file); err != nil {
		return Result{}, fmt.Errorf("uploading %s failed: %w", args.Path, err)
	}
	return Result{Content: textContent("Attached file: " + title)}, nil
}
