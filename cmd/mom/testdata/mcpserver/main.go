// Command mcpserver is the stdio MCP server of the custom tools tests, built with the real SDK.
// It appends a line to $MCP_STARTS each time it starts, and refuses to start while the file
// $MCP_STAY_DOWN exists, so a test can hold it down after a crash.
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to send back"`
}

type echoOut struct {
	Length int `json:"length"`
}

func main() {
	if f, err := os.OpenFile(os.Getenv("MCP_STARTS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
		fmt.Fprintln(f, os.Getpid())
		f.Close()
	}
	if _, err := os.Stat(os.Getenv("MCP_STAY_DOWN")); err == nil {
		log.Fatal("told to stay down")
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, echoOut, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, echoOut{Length: len(in.Text)}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "environment", Description: "List the server's environment."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			env := os.Environ()
			slices.Sort(env)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(env, "\n")}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "crash", Description: "Exit at once, and stay down until told otherwise."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			os.WriteFile(os.Getenv("MCP_STAY_DOWN"), nil, 0o644)
			os.Exit(3)
			return nil, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}
