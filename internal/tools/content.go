package tools

import "github.com/mom-agent/mom/internal/llm"

// textContent is a result made of one text block.
func textContent(s string) []llm.Content { return []llm.Content{llm.Text(s)} }
