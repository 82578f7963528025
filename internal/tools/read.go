package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

const readDescription = `Read a file. For text files you get the lines from offset (1-based, default 1) on, up to limit lines, cut to 2000 lines or 50KB, whichever comes first; a note at the end tells you the offset to continue from. Images (jpg, jpeg, png, gif, webp) are returned as images you can look at. Relative paths are resolved against your working directory; ~ is not expanded.`

const readSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"path": {"type": "string", "description": "Path of the file to read, absolute or relative to your working directory."},
		"offset": {"type": "integer", "minimum": 1, "description": "Line number to start reading at, 1-based. Default 1."},
		"limit": {"type": "integer", "minimum": 1, "description": "Most lines to return. Default: as many as fit in 2000 lines / 50KB."}
	},
	"required": ["label", "path"],
	"additionalProperties": false
}`

// binarySniffBytes is how much of a file read looks at for NUL bytes to tell binary from text.
// It is what git and grep look at, and enough to catch every common binary format.
const binarySniffBytes = 8 << 10

// Read reads text files, paged, and images (pi's read tool).
type Read struct{ definition }

// NewRead returns the read tool.
func NewRead() *Read {
	return &Read{mustDefine("read", readDescription, readSchema)}
}

type readArgs struct {
	Path   string   `json:"path"`
	Offset *float64 `json:"offset"`
	Limit  *float64 `json:"limit"`
}

// readDetails is the read tool's Result.Details when the text was cut.
type readDetails struct {
	Truncation Truncation `json:"truncation"`
}

// Run reads the file. Binary files other than the supported images are refused with a hint to
// use bash: their bytes would be noise to the model and could fill its context.
func (r *Read) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var args readArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	p := resolvePath(env.Cwd, args.Path)
	fi, err := env.Exec.Stat(ctx, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Result{}, fmt.Errorf("File not found: %s", args.Path)
	case err != nil:
		return Result{}, fmt.Errorf("cannot read %s: %w", args.Path, err)
	case fi.IsDir:
		return Result{}, fmt.Errorf("%s is a directory, not a file. Use bash (ls) to list it.", args.Path)
	}
	if mime := imageMimeType(p); mime != "" {
		return readImage(ctx, env, p, args.Path, mime, fi.Size)
	}

	offset, limit := 1, 0
	if args.Offset != nil {
		offset = max(int(*args.Offset), 1)
	}
	if args.Limit != nil {
		if limit = int(*args.Limit); limit < 1 {
			return Result{}, errors.New("limit must be at least 1")
		}
	}
	f, err := env.Exec.Open(ctx, p)
	if err != nil {
		return Result{}, fmt.Errorf("cannot read %s: %w", args.Path, err)
	}
	defer f.Close()
	return readText(f, args.Path, offset, limit, fi.Size)
}

// readText pages through a text file: it keeps the selected lines that fit the limits and
// counts all lines, streaming, then renders pi's notices.
func readText(r io.Reader, path string, offset, limit int, size int64) (Result, error) {
	lr := newLineReader(r)
	if head, _ := lr.br.Peek(binarySniffBytes); bytes.IndexByte(head, 0) >= 0 {
		return Result{}, fmt.Errorf("%s looks like a binary file (it contains NUL bytes), so it is not shown as text. Use bash to inspect it, e.g. file, xxd %s | head, or strings.", path, shellQuote(path))
	}

	first := offset - 1 // 0-based index of the first selected line
	end := -1           // index after the last selected line; -1: to the end of the file
	if limit > 0 {
		end = first + limit
	}
	h := headLimit{maxLines: maxOutputLines, maxBytes: maxOutputBytes}
	var out strings.Builder
	var firstLineSize int
	lines := 0 // lines read one by one so far
	for lines < first {
		ok, err := lr.skip()
		if err != nil {
			return Result{}, fmt.Errorf("reading %s: %w", path, err)
		}
		if !ok {
			break
		}
		lines++
	}
	for lines >= first && (end < 0 || lines < end) {
		line, n, ok, err := lr.next(maxOutputBytes)
		if err != nil {
			return Result{}, fmt.Errorf("reading %s: %w", path, err)
		}
		if !ok {
			break
		}
		if lines == first {
			firstLineSize = n
		}
		lines++
		if !h.add(n) {
			break
		}
		if h.lines > 1 {
			out.WriteByte('\n')
		}
		out.Write(line)
	}
	rest, err := lr.countRest()
	if err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", path, err)
	}
	total := lines + rest

	if first >= total && !(total == 0 && first == 0) {
		return Result{}, fmt.Errorf("Offset %d is beyond end of file (%d lines total)", offset, total)
	}
	t := Truncation{TotalLines: total, TotalBytes: int(size), MaxLines: maxOutputLines, MaxBytes: maxOutputBytes}
	h.fill(&t)
	text := strings.ToValidUTF8(out.String(), "\uFFFD")
	startLine := offset
	switch {
	case h.firstTooLong:
		text = fmt.Sprintf("[Line %d is %s, exceeds %s limit. Use bash: sed -n '%dp' %s | head -c %d]",
			startLine, formatSize(firstLineSize), formatSize(maxOutputBytes), startLine, shellQuote(path), maxOutputBytes)
	case h.truncated():
		endLine := startLine + h.lines - 1
		limitNote := ""
		if h.by == byBytes {
			limitNote = " (" + formatSize(maxOutputBytes) + " limit)"
		}
		text += fmt.Sprintf("\n\n[Showing lines %d-%d of %d%s. Use offset=%d to continue]",
			startLine, endLine, total, limitNote, endLine+1)
	case end >= 0 && end < total:
		text += fmt.Sprintf("\n\n[%d more lines in file. Use offset=%d to continue]", total-end, end+1)
	case text == "" && total == 0:
		text = "(empty file)"
	case text == "":
		text = "(the selected lines are empty)"
	}
	res := Result{Content: textContent(text)}
	if t.Truncated {
		res.Details = readDetails{Truncation: t}
	}
	return res, nil
}
