package agent

import (
	"encoding/base64"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
)

// maxInlineImage is the largest image sent inline; the Anthropic API refuses bigger ones. Larger
// images are still listed by path, so the model can look at them with its tools.
const maxInlineImage = 5 << 20

// imageType returns the MIME type of the image formats the model providers accept inline.
func imageType(name string) (string, bool) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png":
		return "image/png", true
	case ".jpg", ".jpeg":
		return "image/jpeg", true
	case ".gif":
		return "image/gif", true
	case ".webp":
		return "image/webp", true
	}
	return "", false
}

// attachmentLine names an attachment for the model on one line (see frame.go): its path in
// the sandbox, or its name, quoted since the sender chose it, and why it is missing.
func (a *Agent) attachmentLine(req Request, att chat.Attachment) string {
	if att.LocalPath == "" {
		reason := att.Error
		if reason == "" {
			reason = "the file could not be downloaded"
		}
		return strconv.Quote(att.Filename) + " (not saved: " + oneLine(reason) + ")"
	}
	return oneLine(path.Join(a.opts.Exec.SandboxPath(req.ChannelDir.Dir()), filepath.ToSlash(att.LocalPath)))
}

// inlineImage reads an image attachment so the model can see it, when the model takes images.
func (a *Agent) inlineImage(req Request, att chat.Attachment) (llm.Content, bool) {
	mime, ok := imageType(att.LocalPath)
	if !ok || att.LocalPath == "" || !a.opts.Model.Images {
		return llm.Content{}, false
	}
	// Opened without following links: a command could have replaced the picture with a
	// link to a key or to config.json, which would then go to the model.
	f, err := req.ChannelDir.OpenAttachment(att.LocalPath)
	if err != nil {
		return llm.Content{}, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() > maxInlineImage {
		return llm.Content{}, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxInlineImage))
	if err != nil {
		return llm.Content{}, false
	}
	return llm.Image(base64.StdEncoding.EncodeToString(data), mime), true
}
