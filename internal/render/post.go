package render

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
)

// Post writes md, a short text such as the hub's notices (busy, stopping, refusals), at at on
// s: in d's markup, split at d's limit, the parts in order. It returns the first part's id,
// which stands for the whole message; on a failure it returns what was posted so far with the
// error.
func Post(ctx context.Context, s chat.Surface, d chat.Dialect, at chat.Place, md string) (string, error) {
	d = fill(d)
	text := d.Format(md)
	parts := []string{text}
	if d.MaxText > 0 {
		parts = d.Split(text, d.MaxText)
	}
	first := ""
	for _, part := range parts {
		id, err := s.Post(ctx, at, part)
		if err != nil {
			return first, err
		}
		if first == "" {
			first = id
		}
	}
	return first, nil
}

// fill gives a dialect the defaults its doc comment promises: markdown left as it is, and
// Split, which knows code fences.
func fill(d chat.Dialect) chat.Dialect {
	if d.Format == nil {
		d.Format = func(md string) string { return md }
	}
	if d.Split == nil {
		d.Split = Split
	}
	return d
}
