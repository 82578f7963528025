package agent

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/chat"
)

// quoteText writes a message's text after its header, in the frame that shows people's
// messages to the model. Each message is one header line and the lines that continue it,
// then the files it came with:
//
//	[2026-03-15 11:00:05+01:00] [mario]: the first line of the text
//	| the second line
//	|
//	| the fourth, after an empty one
//
//	<attachments>
//	/workspace/channels/team/C1/attachments/1773568805000_notes.txt
//	"report.pdf" (not saved: the file is 30 MB, over mom's limit of 25 MB)
//	</attachments>
//
// What was said in a voice note follows the text as a line of the message (withTranscripts):
// `[voice note, 0:42] what was said`.
//
// The time is there for the message that started the run only (with waitedNote when it waited
// for a restart); a one-line message reads as
// in pi's mom, `[mario]: hello`.
//
// Everything in a message but the frame itself comes from people, so the frame is built so
// that nothing they write can end it or start another speaker's message, even where the
// provider merges consecutive messages into one turn and the model reads them as one text:
//
//   - The header is the only line of a message that begins with "[". Every further line of
//     the text begins with "|", so a text line such as
//     "[2030-01-01 00:00:00+00:00] [admin]: …" or "</attachments>" reads as what it is, a
//     line of this message, quoted. Every character a reader may break a line at counts as
//     a line break (lineBreak), and a CR LF pair as one.
//   - The sender's name cannot leave its brackets (speaker): brackets become parentheses and
//     line breaks and other control characters become spaces.
//   - Each attachment is one line that begins with "/" (a path in the sandbox, which mom
//     made) or '"' (a file name that could not be saved, quoted as a Go string, so quotes,
//     line breaks and control characters in it are escapes), never with "[", "|" or "<".
//
// The system prompt teaches the model this format (internal/prompt/sections/context.md).
//
// waitedNote says, in the header of a trigger that waited for mom to restart, how long ago it
// was sent, so the model does not answer as if it were just asked:
//
//	[2026-03-15 11:00:05+01:00, sent 3 minutes ago, while you were restarting] [mario]: …
func waitedNote(ago time.Duration) string {
	switch mins := int(ago.Round(time.Minute) / time.Minute); {
	case mins < 1:
		return "sent less than a minute ago, while you were restarting"
	case mins == 1:
		return "sent 1 minute ago, while you were restarting"
	default:
		return "sent " + strconv.Itoa(mins) + " minutes ago, while you were restarting"
	}
}

// quoteText writes the first line of text as it is, and each further line on a line of its
// own after "| " ("|" alone for an empty line).
func quoteText(b *strings.Builder, text string) {
	for i, line := range splitLines(text) {
		if i > 0 {
			b.WriteString("\n|")
			if line != "" {
				b.WriteString(" ")
			}
		}
		b.WriteString(line)
	}
}

// splitLines cuts text at every line break (lineBreak), a CR LF pair counting as one.
func splitLines(text string) []string {
	var lines []string
	for {
		i := strings.IndexFunc(text, lineBreak)
		if i < 0 {
			return append(lines, text)
		}
		lines = append(lines, text[:i])
		_, size := utf8.DecodeRuneInString(text[i:])
		if strings.HasPrefix(text[i:], "\r\n") {
			size = 2
		}
		text = text[i+size:]
	}
}

// lineBreak reports whether a reader may take r for the end of a line: line feed, carriage
// return, vertical tab, form feed, next line (U+0085), and the line and paragraph
// separators (U+2028, U+2029).
func lineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// oneLine returns s with every line break and other control character as a space, for what
// must stay on its line: a sender's name, the reason a file is missing, a path.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if lineBreak(r) || unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// speakerOf is the name m's sender is shown by (speaker), made unmistakable where a person
// took a name that mom's own lines use: "EVENT", the sender of wake-ups, or the bot's
// own name (which another bot may also have). Such a sender is shown with their id,
// [EVENT (id 4711)], so their message cannot pass for a wake-up or for mom.
func speakerOf(m chat.Message, bot chat.User) string {
	name := speaker(m.Sender)
	if m.WakeUpFile() != "" {
		return name
	}
	if strings.EqualFold(name, "EVENT") || strings.EqualFold(name, speaker(bot)) {
		return name + " (id " + speaker(chat.User{ID: m.Sender.ID}) + ")"
	}
	return name
}

// speaker is the name a message's sender is shown by: the platform's username, else the
// display name, else the id, kept to one line and without brackets (which become
// parentheses), so it cannot close its header or open another.
func speaker(u chat.User) string {
	name := u.Username
	if name == "" {
		name = u.DisplayName
	}
	if name == "" {
		name = u.ID
	}
	name = strings.TrimSpace(oneLine(strings.NewReplacer("[", "(", "]", ")").Replace(name)))
	if name == "" {
		return "unknown"
	}
	return name
}
