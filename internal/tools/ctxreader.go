package tools

import (
	"context"
	"io"
)

// ctxReader makes a long read (counting the lines of a huge file) stop when the run is aborted.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
