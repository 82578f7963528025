package customtools

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/tools"
)

// imageTypes are the image formats the model APIs accept.
var imageTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// maxImageData caps one image's base64 data: Anthropic rejects more than 5 MB.
const maxImageData = 5 << 20

// wireResult is what an executable tool may print: pi's tool result, plus MCP's isError.
type wireResult struct {
	Content []wireContent   `json:"content"`
	Details json.RawMessage `json:"details"`
	IsError bool            `json:"isError"`
}

type wireContent struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Data     string `json:"data"`
	MimeType string `json:"mimeType"`
}

// parseOutput reads what an executable tool printed. Output that is a JSON object with a
// "content" list is a structured result; anything else is plain text. isError reports a
// structured result that says it failed.
func parseOutput(out []byte) (res tools.Result, isError bool, err error) {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		return tools.Result{}, false, nil
	}
	if trimmed[0] == '{' {
		var probe map[string]json.RawMessage
		if json.Unmarshal(trimmed, &probe) == nil {
			if _, ok := probe["content"]; ok {
				return parseStructured(trimmed)
			}
		}
	}
	return tools.Result{Content: []llm.Content{llm.Text(string(out))}}, false, nil
}

func parseStructured(data []byte) (tools.Result, bool, error) {
	var w wireResult
	if err := json.Unmarshal(data, &w); err != nil {
		return tools.Result{}, false, fmt.Errorf("the tool printed a result that does not match {\"content\": [...], \"details\": ...}: %w", err)
	}
	var res tools.Result
	for i, c := range w.Content {
		block, err := contentBlock(c)
		if err != nil {
			return tools.Result{}, false, fmt.Errorf("the tool's result content[%d]: %w", i, err)
		}
		res.Content = append(res.Content, block)
	}
	if d := bytes.TrimSpace(w.Details); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		res.Details = json.RawMessage(d)
	}
	return res, w.IsError, nil
}

// contentBlock checks one block of a structured result.
func contentBlock(c wireContent) (llm.Content, error) {
	switch c.Type {
	case "text":
		return llm.Text(c.Text), nil
	case "image":
		return imageBlock(c.Data, c.MimeType)
	}
	return llm.Content{}, fmt.Errorf("type %q is not \"text\" or \"image\"", c.Type)
}

// imageBlock checks an image before it goes to the model, which would reject the whole
// request over a bad one.
func imageBlock(data, mime string) (llm.Content, error) {
	if !slices.Contains(imageTypes, mime) {
		return llm.Content{}, fmt.Errorf("image mimeType %q is not one of %s", mime, strings.Join(imageTypes, ", "))
	}
	if len(data) > maxImageData {
		return llm.Content{}, fmt.Errorf("image data is %d bytes of base64; the model takes at most %d", len(data), maxImageData)
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return llm.Content{}, errors.New("image data is not standard base64")
	}
	return llm.Image(data, mime), nil
}

// resultText joins a result's text blocks, for an error message made from a failed result.
func resultText(res tools.Result) string {
	var parts []string
	for _, c := range res.Content {
		if c.Type == llm.TypeText && strings.TrimSpace(c.Text) != "" {
			parts = append(parts, strings.TrimRight(c.Text, "\n"))
		}
	}
	return strings.Join(parts, "\n")
}
