package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

const writeDescription = `Write content to a file, replacing the file if it exists. Missing parent directories are created. The file is replaced atomically, so nobody ever sees it half-written. For a small change to an existing file, edit is cheaper and safer.`

const writeSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"path": {"type": "string", "description": "Path of the file to write, absolute or relative to your working directory."},
		"content": {"type": "string", "description": "The complete new content of the file."}
	},
	"required": ["label", "path", "content"],
	"additionalProperties": false
}`

// Write writes whole files (pi's write tool). Unlike pi's, the content never passes through a
// shell, so there is no size limit from the command line and no quoting to get wrong.
type Write struct{ definition }

// NewWrite returns the write tool.
func NewWrite() *Write {
	return &Write{mustDefine("write", writeDescription, writeSchema)}
}

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Run writes the file through the executor.
func (w *Write) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var args writeArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	p := resolvePath(env.Cwd, args.Path)
	if err := env.Exec.WriteFile(ctx, p, strings.NewReader(args.Content)); err != nil {
		return Result{}, fmt.Errorf("cannot write %s: %w", args.Path, err)
	}
	return Result{Content: textContent(fmt.Sprintf("Successfully wrote %d bytes to %s", len(args.Content), args.Path))}, nil
}
