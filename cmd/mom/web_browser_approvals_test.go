package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWebBrowserApprovalCard: in the page, a command that needs a yes is a card with Allow,
// Allow always and Deny; pressing Allow runs it, and the card then says who allowed it, at a
// phone's size; axe-core finds nothing serious with the card waiting.
func TestWebBrowserApprovalCard(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, `"approvals": {"mode": "ask"}`, "")
	ww.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch from-the-card.txt"})),
		fakellm.Text("Made it."),
	)
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.phone()
	p.open("Ada")
	p.say("make a file")
	p.until("the card", `(() => { const c = document.querySelector(".card[data-card]");
		return c && c.textContent.includes("touch from-the-card.txt") &&
			[...c.querySelectorAll(".buttons button")].map(b => b.textContent).join("|") === "Allow|Allow always in this channel|Deny" })()`)
	p.screenshot("web-phone-approval.png")
	p.axe("a request for approval")
	if _, err := os.Stat(filepath.Join(ww.channelDir("web", "general"), "scratch", "from-the-card.txt")); err == nil {
		t.Fatal("the command ran before anyone allowed it")
	}
	p.do("pressing Allow", chromedp.Click(`.card[data-card] .buttons button`))
	p.until("the card to say who allowed it", `(() => { const c = document.querySelector(".card[data-card]");
		return !c.querySelector(".buttons") && c.querySelector(".done").textContent.includes("Allowed by Ada") })()`)
	p.until("the answer", `[...document.querySelectorAll(".run .text")].some(e => e.textContent === "Made it.")`)
	if _, err := os.Stat(filepath.Join(ww.channelDir("web", "general"), "scratch", "from-the-card.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	ww.stop()
}
