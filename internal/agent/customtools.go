package agent

import (
	"slices"
	"sync"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/tools"
)

// customCache keeps the tools made from the last set of custom tools seen, so that runs do
// not wrap (and resolve the schemas of) the same custom tools again until the set changes.
type customCache struct {
	mu     sync.Mutex
	seen   []tools.Tool // the set as Options.Custom returned it
	offer  []tools.Tool // what the model is offered for it: invoke_tool, or the direct tools
	listed []llm.Tool   // what the prompt lists
}

// runTools returns the tools of one run, built-in and custom, and the custom tools for the
// prompt. Custom tools are asked for at every run, as folders come and go while mom runs.
func (a *Agent) runTools() ([]tools.Tool, []llm.Tool) {
	if a.opts.Custom == nil {
		return a.opts.Tools, nil
	}
	current := a.opts.Custom.CustomTools()
	c := &a.custom
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil || !slices.Equal(c.seen, current) {
		c.seen, c.offer, c.listed = current, nil, nil
		for _, t := range current {
			c.listed = append(c.listed, t.Def())
			if !a.opts.CustomToolsDirect {
				continue
			}
			d, err := tools.Direct(t)
			if err != nil {
				a.opts.Logger.Warn("custom tool left out", "tool", t.Def().Name, "err", err)
				continue
			}
			c.offer = append(c.offer, d)
		}
		if !a.opts.CustomToolsDirect && len(current) > 0 {
			c.offer = []tools.Tool{tools.NewInvoke(a.opts.Custom)}
		}
	}
	return append(slices.Clip(a.opts.Tools), c.offer...), c.listed
}
