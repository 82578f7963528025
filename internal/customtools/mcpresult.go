package customtools

import (
	"encoding/base64"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/tools"
)

// fromMCP turns an MCP tool result into a tool result. Text and images reach the model; what
// it cannot take (audio, binary resources) is named in a line of text instead of silently
// dropped, and structured content becomes the details.
func fromMCP(res *mcp.CallToolResult) tools.Result {
	var out tools.Result
	for _, c := range res.Content {
		out.Content = append(out.Content, mcpBlock(c))
	}
	if res.StructuredContent != nil {
		out.Details = res.StructuredContent
	}
	return out
}

func mcpBlock(c mcp.Content) llm.Content {
	switch c := c.(type) {
	case *mcp.TextContent:
		return llm.Text(c.Text)
	case *mcp.ImageContent:
		block, err := imageBlock(base64.StdEncoding.EncodeToString(c.Data), c.MIMEType)
		if err != nil {
			return llm.Text(fmt.Sprintf("[an image was left out: %v]", err))
		}
		return block
	case *mcp.AudioContent:
		return llm.Text(fmt.Sprintf("[%s audio was left out: the model cannot hear]", c.MIMEType))
	case *mcp.ResourceLink:
		return llm.Text(fmt.Sprintf("[resource %s: %s]", c.Name, c.URI))
	case *mcp.EmbeddedResource:
		if r := c.Resource; r != nil {
			if r.Text != "" {
				return llm.Text(r.Text)
			}
			return llm.Text(fmt.Sprintf("[binary resource %s (%s) was left out]", r.URI, r.MIMEType))
		}
	}
	return llm.Text(fmt.Sprintf("[content of type %T was left out]", c))
}
