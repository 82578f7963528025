// Package cli is the terminal adapter (`"type": "cli"`): one conversation with the person at
// the keyboard. Each line typed is a message; answers stream as they arrive, each tool call
// shows as `→ label`, and a one-line usage summary ends every run. It is also what `mom run`
// uses for one-shot prompts, printing only the final answer on stdout.
package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// ChannelID is the id of the terminal's one conversation.
const ChannelID = "local"

// maxMessage is the most text one message may hold; longer input is cut there, and the
// person is told.
const maxMessage = 1 << 20

// Options configure the terminal adapter.
type Options struct {
	// Name is the adapter's key in config.json.
	Name string
	// In is where people type; Out is where the conversation is shown, and Progress where
	// one-shot mode shows tool progress (usually stderr).
	In       io.Reader
	Out      io.Writer
	Progress io.Writer
	// User is the person typing.
	User chat.User
	// Interactive shows a prompt and uses colour; set it when In and Out are a terminal.
	Interactive bool
	// OneShot prints only each run's final answer on Out, and progress on Progress.
	OneShot bool
	// Channel overrides the conversation id (mom run -c); empty means ChannelID.
	Channel string
	// AskIn is where one-shot mode reads answers to requests for approval (a terminal);
	// nil denies them, saying how to run unasked. The interactive terminal reads them as
	// typed lines like any other.
	AskIn io.Reader
}

// Adapter is the terminal adapter.
type Adapter struct {
	opts Options
	out  *writer
	seq  atomic.Int64
	// heard is set once a message was read from the input.
	heard atomic.Bool

	done     chan struct{} // closed when the input has ended
	stopOnce sync.Once
	in       atomic.Pointer[inbox] // set by Start, for answers read in one-shot mode

	mu      sync.Mutex
	outcome llm.StopReason // how the last run ended, for mom run's exit status
}

// New returns a terminal adapter.
func New(opts Options) *Adapter {
	if opts.Channel == "" {
		opts.Channel = ChannelID
	}
	if opts.User.ID == "" {
		opts.User = chat.User{ID: "user", Username: "user"}
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	return &Adapter{opts: opts, out: &writer{w: opts.Out, color: opts.Interactive}, done: make(chan struct{})}
}

// Name returns the adapter's config key.
func (a *Adapter) Name() string { return a.opts.Name }

// Start begins reading lines; every non-empty line goes to in as a direct message.
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	a.in.Store(&inbox{in})
	a.prompt()
	go a.read(ctx, in)
	return nil
}

func (a *Adapter) read(ctx context.Context, in chat.Inbox) {
	defer a.finish()
	r := bufio.NewReaderSize(a.opts.In, 64<<10)
	if a.opts.OneShot {
		// A one-shot prompt is one message, however many lines it has.
		text, cut, err := readUpTo(r, maxMessage, 0)
		a.deliver(ctx, in, text, cut, err)
		return
	}
	for {
		text, cut, err := readUpTo(r, maxMessage, '\n')
		if !a.deliver(ctx, in, text, cut, err) {
			return
		}
	}
}

// deliver sends one message read from the input and reports whether to read on.
func (a *Adapter) deliver(ctx context.Context, in chat.Inbox, text string, cut bool, readErr error) bool {
	text = strings.TrimSpace(text)
	if cut {
		a.out.line(red, fmt.Sprintf("(the message was longer than %d MB; mom gets its first %d MB)", maxMessage>>20, maxMessage>>20))
	}
	if text != "" {
		a.heard.Store(true)
		if err := in.Receive(ctx, a.opts.Name, a.message(text)); err != nil {
			if ctx.Err() != nil {
				return false
			}
			a.out.line(red, "error: "+err.Error())
		}
	} else if readErr == nil {
		a.prompt()
	}
	if readErr != nil && readErr != io.EOF {
		a.out.line(red, "error reading input: "+readErr.Error())
	}
	return readErr == nil
}

// readUpTo reads up to and including delim (0: to the end of the input) and returns what it
// read without the delimiter, keeping at most max bytes; cut says there was more, which is
// read and dropped so the next message starts where it should. It never holds more than max
// bytes, whatever the input.
func readUpTo(r *bufio.Reader, max int, delim byte) (text string, cut bool, err error) {
	var b, buf []byte
	if delim == 0 {
		buf = make([]byte, 64<<10)
	}
	for {
		var frag []byte
		if delim == 0 {
			var n int
			n, err = r.Read(buf)
			frag = buf[:n]
		} else {
			frag, err = r.ReadSlice(delim)
		}
		if room := max - len(b); len(frag) > room {
			frag, cut = frag[:room], true
		}
		b = append(b, frag...)
		if err == bufio.ErrBufferFull || (delim == 0 && err == nil) {
			continue
		}
		if delim != 0 && err == nil && !cut {
			b = b[:len(b)-1] // the delimiter; a cut line lost it with the rest
		}
		return strings.ToValidUTF8(string(b), ""), cut, err
	}
}

// message makes a chat message of a typed line. Ids are unique across restarts: the time in
// nanoseconds plus a counter for lines read in the same instant.
func (a *Adapter) message(text string) chat.Message {
	now := time.Now()
	return chat.Message{
		ID:        strconv.FormatInt(now.UnixNano(), 10) + "-" + strconv.FormatInt(a.seq.Add(1), 10),
		ChannelID: a.opts.Channel, TS: now, Sender: a.opts.User, Text: text,
		IsMention: true, IsDM: true,
	}
}

func (a *Adapter) finish() { a.stopOnce.Do(func() { close(a.done) }) }

// Done is closed when the input has ended (Ctrl-D, or the end of piped input).
func (a *Adapter) Done() <-chan struct{} { return a.done }

// Stop stops reading input. A read in progress on a terminal cannot be interrupted; the
// process exits around it.
func (a *Adapter) Stop(ctx context.Context) error {
	a.finish()
	return nil
}

// Reply shows one run.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply {
	if a.opts.OneShot {
		return &oneShot{ctx: ctx, a: a, progress: &writer{w: a.opts.Progress}}
	}
	if f := trigger.WakeUpFile(); f != "" {
		a.out.line(dim, "(starting event "+f+")")
	}
	return &reply{a: a, w: a.out}
}

func (a *Adapter) setOutcome(r llm.StopReason) {
	a.mu.Lock()
	a.outcome = r
	a.mu.Unlock()
}

// Outcome reports how the last run ended ("" when none has).
func (a *Adapter) Outcome() llm.StopReason {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.outcome
}

// prompt shows that mom is ready for the next line.
func (a *Adapter) prompt() {
	if a.opts.Interactive && !a.opts.OneShot {
		a.out.write(bold, "> ")
	}
}

// Conversation is the id of the terminal's one conversation: ChannelID, or mom run's -c.
func (a *Adapter) Conversation() string { return a.opts.Channel }
