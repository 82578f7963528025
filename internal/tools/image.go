package tools

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// maxImageBytes is the largest image the model APIs take in one block: Anthropic rejects images
// whose base64 data exceeds 5 MB, so that is the size checked (the file itself may be at most
// about 3.75 MB).
const maxImageBytes = 5 * 1024 * 1024

// imageMimeType returns the MIME type of an image read returns as an image, by the file's
// extension, or "" for anything else.
func imageMimeType(p string) string {
	switch strings.ToLower(path.Ext(p)) {
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".png":
		return "image/png"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}

// readImage returns an image file as an image block. The MIME type comes from the content when
// it is one of the supported ones, since a .png that is really a JPEG would otherwise be
// rejected by the API; else from the extension.
func readImage(ctx context.Context, env *Env, p, shown, mime string, size int64) (Result, error) {
	encoded := base64.StdEncoding.EncodedLen(int(size))
	if encoded > maxImageBytes {
		return Result{}, fmt.Errorf("Image %s is %s (%s base64-encoded), over the %s limit for one image sent to the model. Make it smaller first, e.g. scale it down with bash.",
			shown, formatSize(int(size)), formatSize(encoded), formatSize(maxImageBytes))
	}
	f, err := env.Exec.Open(ctx, p)
	if err != nil {
		return Result{}, fmt.Errorf("cannot read %s: %w", shown, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, size+1))
	if err != nil {
		return Result{}, fmt.Errorf("reading %s: %w", shown, err)
	}
	if len(data) > int(size) {
		return Result{}, fmt.Errorf("%s grew while it was being read; try again", shown)
	}
	switch sniffed := http.DetectContentType(data); sniffed {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
		mime = sniffed
	}
	return Result{Content: []llm.Content{
		llm.Text(fmt.Sprintf("Read image file [%s]", mime)),
		llm.Image(base64.StdEncoding.EncodeToString(data), mime),
	}}, nil
}
