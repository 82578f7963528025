package faketelegram

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The parse_mode "HTML" parser, as Telegram's server reads a message: the supported tags
// (https://core.telegram.org/bots/api#html-style), &lt; &gt; &amp; &quot; and numeric
// character references, everything else literal; errors worded and placed (byte offsets) as
// Telegram words them after "Bad Request: can't parse entities: ".

var htmlTags = map[string]string{
	"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline", "ins": "underline",
	"s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
	"tg-spoiler": "spoiler", "span": "spoiler", "a": "text_link", "code": "code", "pre": "pre",
	"blockquote": "blockquote", "tg-emoji": "custom_emoji",
}

type openTag struct {
	name, arg string
	offset    int // UTF-16 offset of the text inside
}

// parseHTML returns the text Telegram shows for markup and its entities, or the reason
// Telegram refuses it.
func parseHTML(markup string) (string, []Entity, error) {
	var text strings.Builder
	var entities []Entity
	var open []openTag
	units := 0
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for i := 0; i < len(markup); {
		c := markup[i]
		if c == '&' {
			if r, n := htmlEntity(markup[i:]); n > 0 {
				text.WriteRune(r)
				units += utf16Len(string(r))
				i += n
				continue
			}
		}
		if c != '<' {
			_, n := utf8.DecodeRuneInString(markup[i:])
			text.WriteString(markup[i : i+n])
			units += utf16Len(markup[i : i+n])
			i += n
			continue
		}
		begin := i
		i++
		if i < len(markup) && markup[i] == '/' { // end tag
			if len(open) == 0 {
				return "", nil, fmt.Errorf("Unexpected end tag at byte offset %d", begin)
			}
			for i < len(markup) && !isSpace(markup[i]) && markup[i] != '>' {
				i++
			}
			name := strings.ToLower(markup[begin+2 : i])
			for i < len(markup) && isSpace(markup[i]) {
				i++
			}
			if i >= len(markup) || markup[i] != '>' {
				return "", nil, fmt.Errorf("Unclosed end tag at byte offset %d", begin)
			}
			top := open[len(open)-1]
			if name != "" && name != top.name {
				return "", nil, fmt.Errorf("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", begin, top.name, name)
			}
			open = open[:len(open)-1]
			if units > top.offset {
				entities = append(entities, tagEntity(top, units-top.offset))
			}
			i++
			continue
		}
		for i < len(markup) && !isSpace(markup[i]) && markup[i] != '>' {
			i++
		}
		if i >= len(markup) {
			return "", nil, fmt.Errorf("Unclosed start tag at byte offset %d", begin)
		}
		name := strings.ToLower(markup[begin+1 : i])
		if _, ok := htmlTags[name]; !ok {
			return "", nil, fmt.Errorf("Unsupported start tag \"%s\" at byte offset %d", name, begin)
		}
		tag := openTag{name: name, offset: units}
		for i < len(markup) && markup[i] != '>' {
			for i < len(markup) && isSpace(markup[i]) {
				i++
			}
			if i < len(markup) && markup[i] == '>' {
				break
			}
			attrBegin := i
			for i < len(markup) && !isSpace(markup[i]) && markup[i] != '=' && markup[i] != '>' {
				i++
			}
			attr := strings.ToLower(markup[attrBegin:i])
			if attr == "" {
				return "", nil, fmt.Errorf("Empty attribute name in the tag \"%s\" at byte offset %d", name, attrBegin)
			}
			for i < len(markup) && isSpace(markup[i]) {
				i++
			}
			if i >= len(markup) || markup[i] != '=' {
				if name == "blockquote" && attr == "expandable" {
					continue
				}
				return "", nil, fmt.Errorf("Expected equal sign in declaration of an attribute of the tag \"%s\" at byte offset %d", name, attrBegin)
			}
			i++
			for i < len(markup) && isSpace(markup[i]) {
				i++
			}
			if i >= len(markup) {
				return "", nil, fmt.Errorf("Unclosed start tag \"%s\" at byte offset %d", name, begin)
			}
			var value strings.Builder
			if q := markup[i]; q == '"' || q == '\'' {
				i++
				for i < len(markup) && markup[i] != q {
					if r, n := htmlEntity(markup[i:]); n > 0 {
						value.WriteRune(r)
						i += n
						continue
					}
					value.WriteByte(markup[i])
					i++
				}
				if i < len(markup) {
					i++
				}
			} else {
				tok := i
				for i < len(markup) && (isAlnum(markup[i]) || markup[i] == '.' || markup[i] == '-') {
					i++
				}
				value.WriteString(strings.ToLower(markup[tok:i]))
				if i < len(markup) && !isSpace(markup[i]) && markup[i] != '>' {
					return "", nil, fmt.Errorf("Unexpected end of name token at byte offset %d", tok)
				}
			}
			if i >= len(markup) {
				return "", nil, fmt.Errorf("Unclosed start tag at byte offset %d", begin)
			}
			v := value.String()
			switch {
			case name == "a" && attr == "href":
				tag.arg = v
			case name == "code" && attr == "class" && strings.HasPrefix(v, "language-"):
				tag.arg = strings.TrimPrefix(v, "language-")
			case name == "span" && attr == "class" && strings.HasPrefix(v, "tg-"):
				tag.arg = strings.TrimPrefix(v, "tg-")
			case name == "tg-emoji" && attr == "emoji-id":
				tag.arg = v
			}
		}
		if name == "span" && tag.arg != "spoiler" {
			return "", nil, fmt.Errorf("Tag \"span\" must have class \"tg-spoiler\" at byte offset %d", begin)
		}
		open = append(open, tag)
		i++ // past '>'
	}
	if len(open) > 0 {
		return "", nil, fmt.Errorf("Can't find end tag corresponding to start tag \"%s\"", open[len(open)-1].name)
	}
	return text.String(), mergePre(entities), nil
}

func tagEntity(t openTag, length int) Entity {
	e := Entity{Type: htmlTags[t.name], Offset: t.offset, Length: length}
	switch t.name {
	case "a":
		e.URL = t.arg
	case "code":
		e.Language = t.arg
	}
	return e
}

// mergePre turns <pre><code class="language-x"> (a code entity and a pre entity over the same
// text) into one pre entity with the language, as Telegram does.
func mergePre(es []Entity) []Entity {
	var out []Entity
	for _, e := range es {
		if n := len(out); n > 0 && e.Type == "pre" && out[n-1].Type == "code" &&
			out[n-1].Offset == e.Offset && out[n-1].Length == e.Length {
			e.Language = out[n-1].Language
			out[n-1] = e
			continue
		}
		out = append(out, e)
	}
	for i := range out {
		if out[i].Type == "code" {
			out[i].Language = "" // a language counts only inside <pre>
		}
	}
	return out
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// htmlEntity decodes the character reference at the start of s ("&lt;", "&#60;", "&#x3C;"),
// returning 0 length when there is none; the ';' may be missing, as Telegram allows.
func htmlEntity(s string) (rune, int) {
	if len(s) < 2 || s[0] != '&' {
		return 0, 0
	}
	end := 1
	var r rune
	if s[1] == '#' {
		end = 2
		hex := end < len(s) && (s[end] == 'x' || s[end] == 'X')
		if hex {
			end++
		}
		start := end
		for end < len(s) && end-start < 8 && (hex && isHex(s[end]) || !hex && s[end] >= '0' && s[end] <= '9') {
			d := rune(s[end] - '0')
			if hex {
				d = hexVal(s[end])
				r = r*16 + d
			} else {
				r = r*10 + d
			}
			end++
		}
		if end == start || r == 0 || r >= 0x10FFFF || r >= 0xD800 && r <= 0xDFFF {
			return 0, 0
		}
	} else {
		for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z') {
			end++
		}
		var ok bool
		r, ok = map[string]rune{"lt": '<', "gt": '>', "amp": '&', "quot": '"', "apos": '\''}[s[1:end]]
		if !ok {
			return 0, 0
		}
	}
	if end < len(s) && s[end] == ';' {
		end++
	}
	return r, end
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func hexVal(c byte) rune {
	switch {
	case c >= 'a':
		return rune(c-'a') + 10
	case c >= 'A':
		return rune(c-'A') + 10
	}
	return rune(c - '0')
}
