package slack

import (
	"strings"
)

// fromSlack turns Slack's message markup into text for the model: the bot's own mention is
// removed (and reported), other people's become @username, channel links #name, special
// mentions @here, links markdown, and the &amp; &lt; &gt; escapes plain characters.
func (a *Adapter) fromSlack(text, botUser string) (out string, mentioned bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '<')
		if i < 0 {
			b.WriteString(unescape(text))
			break
		}
		j := strings.IndexByte(text[i:], '>')
		if j < 0 {
			b.WriteString(unescape(text))
			break
		}
		b.WriteString(unescape(text[:i]))
		inner := text[i+1 : i+j]
		text = text[i+j+1:]
		repl, self := a.entity(inner, botUser)
		if self {
			mentioned = true
			// Drop the mention and one space after it, so "<@BOT> hi" reads "hi".
			text = strings.TrimPrefix(text, " ")
			continue
		}
		b.WriteString(repl)
	}
	return strings.TrimSpace(b.String()), mentioned
}

// entity renders the inside of one <…> sequence; self says it mentions the bot.
func (a *Adapter) entity(inner, botUser string) (text string, self bool) {
	ref, label, hasLabel := strings.Cut(inner, "|")
	label = unescape(label)
	switch {
	case strings.HasPrefix(ref, "@"):
		id := ref[1:]
		if id == botUser {
			return "", true
		}
		if u, ok := a.dir.user(id); ok && u.Username != "" {
			return "@" + u.Username, false
		}
		if hasLabel {
			return "@" + strings.TrimPrefix(label, "@"), false
		}
		return "@" + id, false
	case strings.HasPrefix(ref, "#"):
		if hasLabel && label != "" {
			return "#" + label, false
		}
		if c, ok := a.dir.channel(ref[1:]); ok {
			return "#" + c.Name, false
		}
		return "#" + ref[1:], false
	case strings.HasPrefix(ref, "!"):
		switch special, _, _ := strings.Cut(ref[1:], "^"); special {
		case "here", "channel", "everyone":
			return "@" + special, false
		}
		if hasLabel {
			return label, false // <!subteam^S1|@team>, <!date^…|fallback>
		}
		return "", false
	}
	url := unescape(ref)
	if strings.HasPrefix(url, "mailto:") {
		if hasLabel {
			return label, false
		}
		return strings.TrimPrefix(url, "mailto:"), false
	}
	if !hasLabel || label == "" || label == url {
		return url, false
	}
	return "[" + label + "](" + url + ")", false
}

// unescape undoes the three escapes Slack applies to message text.
func unescape(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}
