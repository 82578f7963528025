package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

const editDescription = `Replace one piece of text in a file with another. oldText must match the file exactly, including whitespace, indentation and line breaks, and must occur exactly once: include enough surrounding lines to make it unique. Use this for precise changes; use write to replace a whole file. Windows line endings and a byte-order mark in the file are preserved.`

const editSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"path": {"type": "string", "description": "Path of the file to edit, absolute or relative to your working directory."},
		"oldText": {"type": "string", "minLength": 1, "description": "The exact text to replace; it must occur exactly once in the file."},
		"newText": {"type": "string", "description": "The text to put in its place."}
	},
	"required": ["label", "path", "oldText", "newText"],
	"additionalProperties": false
}`

// diffContextLines is how many unchanged lines the edit diff shows around each change.
const diffContextLines = 4

const utf8BOM = "\ufeff"

// Edit replaces a unique piece of text in a file (pi's edit tool).
type Edit struct{ definition }

// NewEdit returns the edit tool.
func NewEdit() *Edit {
	return &Edit{mustDefine("edit", editDescription, editSchema)}
}

type editArgs struct {
	Path    string `json:"path"`
	OldText string `json:"oldText"`
	NewText string `json:"newText"`
}

// editDetails is the edit tool's Result.Details.
type editDetails struct {
	// Diff is the change as numbered lines; see numberedDiff.
	Diff string `json:"diff"`
	// FirstChangedLine is the line number, in the new file, of the first change.
	FirstChangedLine int `json:"firstChangedLine,omitempty"`
}

// Run makes the replacement. The model writes "\n" line breaks whatever the file uses, so the
// match is made on the text with CRLF turned into LF; the matched span of the original is then
// replaced with newText in the file's own line-ending style, leaving every other byte of the
// file (including mixed endings elsewhere, and a BOM) as it was.
func (e *Edit) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var args editArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	p := resolvePath(env.Cwd, args.Path)
	data, err := readWhole(ctx, env, p, args.Path)
	if err != nil {
		return Result{}, err
	}
	bom := ""
	if strings.HasPrefix(data, utf8BOM) {
		bom, data = utf8BOM, data[len(utf8BOM):]
	}
	crlf := usesCRLF(data)
	content := toLF(data)
	oldText, newText := toLF(args.OldText), toLF(args.NewText)
	if oldText == "" {
		return Result{}, errors.New("oldText must not be empty")
	}

	switch n := strings.Count(content, oldText); {
	case n == 0:
		return Result{}, fmt.Errorf("Could not find the exact text in %s. The old text must match exactly including all whitespace and newlines.", args.Path)
	case n > 1:
		return Result{}, fmt.Errorf("Found %d occurrences of the text in %s. The text must be unique. Please provide more context to make it unique.", n, args.Path)
	}
	at := strings.Index(content, oldText)
	updated := content[:at] + newText + content[at+len(oldText):]
	if updated == content {
		return Result{}, fmt.Errorf("No changes made to %s. The replacement produced identical content.", args.Path)
	}

	start := originalOffset(data, 0, 0, at)
	end := originalOffset(data, start, at, at+len(oldText))
	replacement := newText
	if crlf {
		replacement = strings.ReplaceAll(newText, "\n", "\r\n")
	}
	out := bom + data[:start] + replacement + data[end:]
	if err := env.Exec.WriteFile(ctx, p, strings.NewReader(out)); err != nil {
		return Result{}, fmt.Errorf("cannot write %s: %w", args.Path, err)
	}
	diff, first := numberedDiff(content, updated, diffContextLines)
	return Result{
		Content: textContent(fmt.Sprintf("Successfully replaced text in %s.", args.Path)),
		Details: editDetails{Diff: diff, FirstChangedLine: first},
	}, nil
}

// readWhole reads a file through the executor, with the errors edit reports.
func readWhole(ctx context.Context, env *Env, p, shown string) (string, error) {
	fi, err := env.Exec.Stat(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("File not found: %s", shown)
	case err != nil:
		return "", fmt.Errorf("cannot read %s: %w", shown, err)
	case fi.IsDir:
		return "", fmt.Errorf("%s is a directory, not a file", shown)
	}
	f, err := env.Exec.Open(ctx, p)
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %w", shown, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", shown, err)
	}
	return string(b), nil
}

// usesCRLF reports whether the file's first line break is CRLF, which decides the style of the
// line breaks edit writes (as pi's detectLineEnding).
func usesCRLF(s string) bool {
	i := strings.IndexByte(s, '\n')
	return i > 0 && s[i-1] == '\r'
}

func toLF(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

// originalOffset maps a position in toLF(s) back to s, continuing from a known pair of
// positions (orig in s, lf in toLF(s)) so two lookups scan s once.
func originalOffset(s string, orig, lf, target int) int {
	for lf < target {
		if s[orig] == '\r' && orig+1 < len(s) && s[orig+1] == '\n' {
			orig += 2
		} else {
			orig++
		}
		lf++
	}
	return orig
}
