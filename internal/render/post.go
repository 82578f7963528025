package render

import "github.com/mom-agent/mom/internal/chat"

// PostParts posts the parts of a split message in order with post and returns the first
// one's id, which stands for the whole message; on a failure it returns what was posted so
// far with the error.
func PostParts(parts []string, post func(part string) (id string, err error)) (string, error) {
	first := ""
	for _, part := range parts {
		id, err := post(part)
		if err != nil {
			return first, err
		}
		if first == "" {
			first = id
		}
	}
	return first, nil
}

// IDMention turns the model's @username into <@id>, the mention markup of Slack and Discord,
// for the people find knows.
func IDMention(find func(username string) (chat.User, bool)) func(username string) (string, bool) {
	return func(name string) (string, bool) {
		if u, ok := find(name); ok {
			return "<@" + u.ID + ">", true
		}
		return "", false
	}
}
