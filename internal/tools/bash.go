package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/sandbox"
)

// The bash tool's timeout, in seconds: the default when the model gives none, and the range a
// given one is clamped to. Without a default a forgotten `tail -f` would hold the channel
// forever; an hour is enough for any build the model should wait for.
const (
	defaultBashTimeout = 600
	minBashTimeout     = 1
	maxBashTimeout     = 3600
)

const bashDescription = `Run a shell command (bash) in your working directory and return its output, stdout and stderr combined. Stdin is empty and there is no terminal, so anything that waits for input fails or hangs: use non-interactive flags (apt-get -y, git commit -m). Output is cut to the last 2000 lines or 50KB, whichever comes first; the full output is then saved to a file whose path the result gives. A non-zero exit code makes the result an error. The command and everything it started are killed after the timeout (default 600 seconds). Whether anything may keep running after the command returns depends on the sandbox (see Environment in the system prompt); where it may, start it in the background with its output redirected: cmd > server.log 2>&1 &`

const bashSchema = `{
	"type": "object",
	"properties": {
		` + labelProperty + `,
		"command": {"type": "string", "description": "The command to run, as you would type it into bash. Several lines and pipes are fine."},
		"timeout": {"type": "number", "description": "Seconds after which the command is killed. Default 600, at most 3600."}
	},
	"required": ["label", "command"],
	"additionalProperties": false
}`

// Bash runs a shell command through the executor (pi's bash tool).
type Bash struct{ definition }

// NewBash returns the bash tool.
func NewBash() *Bash {
	return &Bash{mustDefine("bash", bashDescription, bashSchema)}
}

type bashArgs struct {
	Command string   `json:"command"`
	Timeout *float64 `json:"timeout"`
}

// bashDetails is the bash tool's Result.Details when the output was cut.
type bashDetails struct {
	Truncation Truncation `json:"truncation"`
	// FullOutputPath is where the whole output was saved, as the sandbox sees it; empty when
	// it could not be saved.
	FullOutputPath string `json:"fullOutputPath,omitempty"`
	// FullOutputError says why the whole output could not be saved.
	FullOutputError string `json:"fullOutputError,omitempty"`
}

// Run runs the command. Output, truncation notice and details are the same for every outcome;
// a non-zero exit, a timeout and an abort return them together with an error whose text (what
// the model reads) is the output followed by what happened.
func (b *Bash) Run(ctx context.Context, env *Env, raw json.RawMessage) (Result, error) {
	var args bashArgs
	if err := decodeArgs(raw, &args); err != nil {
		return Result{}, err
	}
	seconds := float64(defaultBashTimeout)
	if args.Timeout != nil {
		seconds = min(max(*args.Timeout, minBashTimeout), maxBashTimeout)
	}

	sink := newOutputSink(env.Scratch, env.Progress)
	code, err := env.Exec.Run(ctx, sandbox.Command{
		Script:  args.Command,
		Dir:     env.Cwd,
		Timeout: time.Duration(seconds * float64(time.Second)),
		Output:  sink,
	})
	sink.close()
	text, res := bashResult(env, sink)

	switch {
	case errors.Is(err, sandbox.ErrTimeout):
		return res, errors.New(appendLine(text, "Command timed out after "+strconv.FormatFloat(seconds, 'f', -1, 64)+" seconds"))
	case err != nil && ctx.Err() != nil:
		return res, errors.New(appendLine(text, "Command aborted"))
	case err != nil:
		return res, err
	case code != 0:
		return res, errors.New(appendLine(text, fmt.Sprintf("Command exited with code %d", code)))
	}
	if text == "" {
		text = "(no output)"
	}
	res.Content = textContent(text)
	return res, nil
}

// bashResult renders the sink's output with pi's truncation notice, and the details.
func bashResult(env *Env, sink *outputSink) (string, Result) {
	content, t := sink.result()
	text := strings.ToValidUTF8(strings.TrimRight(content, "\n"), "\uFFFD")
	if !t.Truncated {
		return text, Result{}
	}
	d := &bashDetails{Truncation: t}
	full := ""
	if sink.spillPath != "" {
		d.FullOutputPath = env.Exec.SandboxPath(sink.spillPath)
		full = ". Full output: " + d.FullOutputPath
	} else if sink.spillErr != nil {
		d.FullOutputError = sink.spillErr.Error()
	}
	start, end := t.TotalLines-t.OutputLines+1, t.TotalLines
	var notice string
	switch {
	case t.LastLinePartial:
		notice = fmt.Sprintf("[Showing last %s of line %d (line is %s)%s]",
			formatSize(t.OutputBytes), end, formatSize(sink.lastLineBytes()), full)
	case t.TruncatedBy == byLines:
		notice = fmt.Sprintf("[Showing lines %d-%d of %d%s]", start, end, t.TotalLines, full)
	default:
		notice = fmt.Sprintf("[Showing lines %d-%d of %d (%s limit)%s]",
			start, end, t.TotalLines, formatSize(maxOutputBytes), full)
	}
	text = appendLine(text, notice)
	return text, Result{Content: textContent(text), Details: d}
}

// appendLine adds a paragraph to text, or returns it alone when text is empty.
func appendLine(text, paragraph string) string {
	if text == "" {
		return paragraph
	}
	return text + "\n\n" + paragraph
}
