package web

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// sanitize is the last pass over the HTML goldmark made before it leaves the server: an
// allow-list of the elements and attributes GitHub-flavoured markdown needs, and nothing that
// runs or loads. It is the policy the web chat first had as a bluemonday.Policy, written out:
// bluemonday's package compiles a few hundred regular expressions for CSS when any program
// that links it starts (a tenth of a one-shot `mom run`, which never shows a web page).
// TestSanitizeMatchesBluemonday holds it to giving bluemonday's output for whatever goldmark
// makes of any text.
//
// What it keeps: p, br, hr, h1–h6, strong, em, del, code (with class="language-…"), pre,
// blockquote, ul, ol (with a numeric start), li, table, thead, tbody, tr, th and td (with
// align), a (with an absolute http, https or mailto href, given rel="nofollow noreferrer" and,
// when it leads to another host, target="_blank" and noopener), and disabled check boxes. Any
// other element goes and its text stays, except that of script, style and the elements that
// embed documents, which goes with it. Comments and doctypes go. Text is escaped again.
func sanitize(src string) string {
	if strings.TrimSpace(src) == "" {
		return src // as bluemonday did: white space holds nothing to remove
	}
	z := html.NewTokenizer(strings.NewReader(src))
	var (
		b strings.Builder
		// skipping counts open elements whose content goes with them (iframe, object, …);
		// skip is whether content is being dropped, which an end tag of one of them clears.
		skipping int
		skip     bool
		// closing holds allowed elements that lost every attribute (an a whose href was
		// refused): they go, and so must their end tags.
		closing []string
		// current is the element most recently opened, for the text of script and style.
		current string
	)
	for {
		if z.Next() == html.ErrorToken {
			return b.String() // the end of the input: a string has no other error
		}
		tok := z.Token()
		switch tok.Type {
		case html.StartTagToken:
			current = tok.Data
			if tok.Data == "script" || tok.Data == "style" {
				continue
			}
			allowed, ok := allowedAttrs(tok.Data)
			if !ok {
				if skipsContent(tok.Data) {
					skip = true
					skipping++
				}
				continue
			}
			tok.Attr = sanitizeAttrs(tok.Data, tok.Attr, allowed)
			if len(tok.Attr) == 0 && !bareAllowed(tok.Data) {
				closing = append(closing, tok.Data)
				continue
			}
			if !skip {
				b.WriteString(tok.String())
			}
		case html.EndTagToken:
			if current == tok.Data {
				current = ""
			}
			if tok.Data == "script" || tok.Data == "style" {
				continue
			}
			if n := len(closing); n > 0 && closing[n-1] == tok.Data {
				closing = closing[:n-1]
				continue
			}
			if _, ok := allowedAttrs(tok.Data); !ok {
				if skipsContent(tok.Data) {
					if skipping--; skipping == 0 {
						skip = false
					}
				}
				continue
			}
			if !skip {
				b.WriteString(tok.String())
			}
		case html.SelfClosingTagToken:
			if tok.Data == "script" || tok.Data == "style" {
				continue
			}
			allowed, ok := allowedAttrs(tok.Data)
			if !ok {
				continue
			}
			tok.Attr = sanitizeAttrs(tok.Data, tok.Attr, allowed)
			if len(tok.Attr) == 0 && !bareAllowed(tok.Data) {
				continue
			}
			if !skip {
				b.WriteString(tok.String())
			}
		case html.TextToken:
			if !skip && current != "script" && current != "style" {
				b.WriteString(tok.String())
			}
		}
		// Comments and doctypes are dropped.
	}
}

// attrCheck says whether an attribute's value may stay.
type attrCheck func(val string) bool

// allowedAttrs returns the attributes element may keep and the check of each value; ok is
// false for an element that may not appear at all.
func allowedAttrs(element string) (allowed map[string]attrCheck, ok bool) {
	switch element {
	case "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "pre",
		"blockquote", "ul", "li", "table", "thead", "tbody", "tr":
		return nil, true
	case "ol":
		return map[string]attrCheck{"start": isDigits}, true
	case "th", "td":
		return map[string]attrCheck{"align": isAlign}, true
	case "code":
		return map[string]attrCheck{"class": isLanguageClass}, true
	case "input":
		return map[string]attrCheck{"type": isCheckbox, "checked": isBooleanValue, "disabled": isBooleanValue}, true
	case "a":
		return map[string]attrCheck{"href": func(string) bool { return true }}, true // the URL is checked apart
	}
	return nil, false
}

// bareAllowed reports whether element may stay without any attribute: every allowed one but
// a link and a check box.
func bareAllowed(element string) bool { return element != "a" && element != "input" }

// skipsContent reports whether the text inside element goes with it: elements that embed
// other documents or hold what is not text.
func skipsContent(element string) bool {
	switch element {
	case "frame", "frameset", "iframe", "noembed", "noframes", "noscript", "nostyle", "object", "title":
		return true
	}
	return false
}

// sanitizeAttrs keeps the attributes of element that allowed lets through, in their order,
// checks a link's address, and marks links as untrusted.
func sanitizeAttrs(element string, attrs []html.Attribute, allowed map[string]attrCheck) []html.Attribute {
	var clean []html.Attribute
	for _, a := range attrs {
		if check, ok := allowed[a.Key]; ok && check(a.Val) {
			clean = append(clean, a)
		}
	}
	if element != "a" || len(clean) == 0 {
		return clean
	}
	var kept []html.Attribute
	for _, a := range clean {
		if a.Key != "href" {
			kept = append(kept, a)
			continue
		}
		if u, ok := linkURL(a.Val); ok {
			a.Val = u
			kept = append(kept, a)
		}
	}
	external := false
	for _, a := range kept {
		if u, err := url.Parse(a.Val); err == nil && u.Host != "" {
			external = true
		}
	}
	if len(kept) == 0 {
		return kept
	}
	rel := "nofollow noreferrer"
	if external {
		rel += " noopener"
	}
	kept = append(kept, html.Attribute{Key: "rel", Val: rel})
	if external {
		kept = append(kept, html.Attribute{Key: "target", Val: "_blank"})
	}
	return kept
}

// linkURL returns a link's address as it is written out, if it is an absolute http, https or
// mailto URL without white space; relative addresses are refused as well.
func linkURL(raw string) (string, bool) {
	raw = strings.TrimSpace(raw)
	if strings.ContainsAny(raw, " \t\n") {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", false
	}
	switch u.Scheme {
	case "http", "https", "mailto":
		return u.String(), true
	}
	return "", false
}

func isDigits(val string) bool {
	if val == "" {
		return false
	}
	for _, c := range val {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isAlign(val string) bool { return val == "left" || val == "center" || val == "right" }

// isLanguageClass accepts goldmark's class for a fenced block's language: "language-" and 1
// to 40 letters, digits, '_', '+', '#', '.' or '-'.
func isLanguageClass(val string) bool {
	lang, ok := strings.CutPrefix(val, "language-")
	if !ok || len(lang) == 0 || len(lang) > 40 {
		return false
	}
	for _, c := range lang {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.ContainsRune("_+#.-", c):
		default:
			return false
		}
	}
	return true
}

func isCheckbox(val string) bool { return val == "checkbox" }

func isBooleanValue(val string) bool { return val == "" || val == "checked" || val == "disabled" }
