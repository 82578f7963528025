package oldprompt

import "strings"

// xmlEscaper escapes text placed between the prompt's XML-style tags, so a skill description
// cannot close its tag and forge another skill or instructions.
var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")

func xmlEscape(s string) string { return xmlEscaper.Replace(s) }

// oneLine flattens a value that must stay on its line (a name, an id, a path): control
// characters become spaces, so a display name cannot start a new line that reads like part of
// the prompt.
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		// 0xe2 starts U+2028 and U+2029, which some readers take as line breaks.
		if s[i] < 0x20 || s[i] == 0x7f || s[i] == 0xe2 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// shellQuote quotes a path for a shell command when it holds anything beyond the usual path
// characters.
func shellQuote(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/._-+:@%,", c) >= 0) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
