// Command clock-mcp is an example custom tool for mom: a stdio MCP server with one tool,
// "clock", that tells the time in any time zone. Build it into a tool folder next to this
// mcp.json (see the README's "Custom tools"):
//
//	mkdir -p ./data/tools/clock-mcp
//	go build -o ./data/tools/clock-mcp/clock-mcp ./examples/tools/clock-mcp
//	cp examples/tools/clock-mcp/mcp.json ./data/tools/clock-mcp/
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type clockArgs struct {
	Timezone string `json:"timezone,omitempty" jsonschema:"an IANA time zone such as Europe/Vienna; default: the server's CLOCK_DEFAULT_ZONE, or UTC"`
}

type clockOut struct {
	Time string `json:"time"`
	Zone string `json:"zone"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "clock", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "clock", Description: "Tell the current date and time in a time zone."}, clock)
	// stdout is the protocol: log to stderr, which mom shows when the server fails.
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

func clock(_ context.Context, _ *mcp.CallToolRequest, in clockArgs) (*mcp.CallToolResult, clockOut, error) {
	name := in.Timezone
	if name == "" {
		name = os.Getenv("CLOCK_DEFAULT_ZONE")
	}
	if name == "" {
		name = "UTC"
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		// An error returned here reaches the model as a tool error it can correct.
		return nil, clockOut{}, fmt.Errorf("unknown time zone %q; use an IANA name such as Europe/Vienna", name)
	}
	now := time.Now().In(loc)
	out := clockOut{Time: now.Format(time.RFC3339), Zone: name}
	text := fmt.Sprintf("%s in %s (%s)", now.Format("Monday 2 January 2006, 15:04:05"), name, now.Format("MST, UTC-07:00"))
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
