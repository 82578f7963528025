package main

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestWebBrowserBotsNameIsRefused: a person who picks mom's own name (spaced out, in
// capitals) is told why in the name dialog, which stays open until they pick another; a
// browser that kept such a name from before is asked for a new one when the page opens.
func TestWebBrowserBotsNameIsRefused(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.do("opening the printed address", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	p.do("picking mom's name", chromedp.SendKeys(chromedp.ID("name-input"), " M o  M "), chromedp.Click(chromedp.ID("name-save")))
	p.until("the reason", `!document.querySelector("#name-error").hidden`)
	if got := p.eval(`document.querySelector("#name-error").textContent`); got != `"M o M" reads as mom's own name; pick another, so nobody takes your words for mom's` {
		t.Errorf("the dialog says %q", got)
	}
	if p.eval(`String(document.querySelector("#name-dialog").open) + " " + (localStorage.getItem("mom.name") || "")`) != "true " {
		t.Error("the refused name closed the dialog or was kept")
	}
	p.eval(`document.querySelector("#name-input").value = ""`)
	p.do("picking another", chromedp.SendKeys(chromedp.ID("name-input"), "  Ada   L "), chromedp.Click(chromedp.ID("name-save")))
	p.until("the dialog to close", `!document.querySelector("#name-dialog").open && document.querySelector("#name-error").hidden`)
	if got := p.eval(`document.querySelector("#who").textContent + "|" + localStorage.getItem("mom.name")`); got != "Ada L|Ada L" {
		t.Errorf("the name kept is %q, want it as mom shows it", got)
	}

	p.eval(`localStorage.setItem("mom.name", "mom"); ""`)
	p.do("reloading", chromedp.Reload())
	p.until("the dialog, asking again", `document.querySelector("#name-dialog").open &&
		document.querySelector("#name-error").textContent.includes("reads as mom's own name")`)
	ww.stop()
}
