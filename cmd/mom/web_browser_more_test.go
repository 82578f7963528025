package main

import (
	"context"
	"encoding/json"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/mom-agent/mom/internal/events"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The person's browser in these tests reads dates in US English and New York time, whatever
// the machine's locale and zone, so the side bar's dates can be compared exactly.
const (
	browserLocale = "en-US"
	browserZone   = "America/New_York"
	// browserDate is how the page's toLocaleString(dateStyle medium, timeStyle short) reads
	// in en-US.
	browserDate = "Jan 2, 2006, 3:04 PM"
)

// inOrder fails the test unless the element first finds (a JavaScript expression) comes
// before the one second finds in the page. Both must be there already.
func (p *page) inOrder(what, first, second string) {
	p.t.Helper()
	got := p.eval(`(() => { const a = ` + first + `, b = ` + second + `;
		if (!a || !b) return "missing: " + (a ? "" : "the first ") + (b ? "" : "the second");
		return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? "in order" : "reversed" })()`)
	if got != "in order" {
		p.t.Errorf("%s: %s; the chat shows:\n%s", what, got, p.eval(`document.querySelector("#log").innerText`))
	}
}

// sideBarEvent returns what the side bar shows for an event file, one line per element, with
// the narrow spaces some locales put before "AM" read as plain ones; nil when it is not listed.
func (p *page) sideBarEvent(file string) []string {
	p.t.Helper()
	f, _ := json.Marshal(file)
	got := p.eval(`JSON.stringify([...document.querySelectorAll("#events li")]
		.filter(li => li.querySelector(".file") && li.querySelector(".file").textContent === ` + string(f) + `)
		.map(li => [...li.children].map(e => e.textContent))[0] || null)`)
	var lines []string
	if err := json.Unmarshal([]byte(got), &lines); err != nil {
		p.t.Fatalf("the side bar's %s: %v (%s)", file, err, got)
	}
	for i, l := range lines {
		lines[i] = strings.NewReplacer("\u202f", " ", "\u00a0", " ").Replace(l)
	}
	return lines
}

// nextNewYear returns the next three 1 January 09:30 in Berlin after now: when the periodic
// event "30 9 1 1 *" in Europe/Berlin fires.
func nextNewYear(t *testing.T, now time.Time) []time.Time {
	t.Helper()
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	var out []time.Time
	for y := now.In(berlin).Year(); len(out) < 3; y++ {
		if at := time.Date(y, time.January, 1, 9, 30, 0, 0, berlin); at.After(now) {
			out = append(out, at)
		}
	}
	return out
}

// TestWebBrowserChannelsAndEvents: a person makes a channel with the page's "+", finds it
// listed and open, and talks to mom there (their words land in its log.jsonl; mom's notes
// come after the words they answer). Event files written while the page is open appear in the
// side bar by themselves, with their next fire times in the person's own zone, and a file
// that is not a valid event shows why, also after mom set it aside; a deleted one goes.
func TestWebBrowserChannelsAndEvents(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	ww.llm.Enqueue(fakellm.Text("Hello from ops."))
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.do("reading dates as a person in New York",
		chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			if _, err := chromedp.Call(ctx, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: browserLocale}); err != nil {
				return err
			}
			_, err := chromedp.Call(ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: browserZone})
			return err
		}))
	p.do("opening the printed address", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	p.do("picking a name", chromedp.SendKeys(chromedp.ID("name-input"), "Ada"), chromedp.Click(chromedp.ID("name-save")))
	p.until("the chat to load", `document.body.dataset.ready === "1" && !document.querySelector("#name-dialog").open`)
	p.until("the empty list of events", `document.querySelector("#events").textContent.includes("none: mom schedules them")`)

	// A new channel, made with the "+" beside the list.
	p.do("making channel ops", chromedp.SendKeys(chromedp.ID("new-channel-name"), "ops"),
		chromedp.Click(`#new-channel button[type=submit]`))
	p.until("ops listed and open", `[...document.querySelectorAll("#channels li")].map(li => li.textContent).join("|") === "# general|# ops" &&
		document.querySelector("#channels li.active").dataset.id === "ops" &&
		document.querySelector("#channel-title").textContent === "web/ops" && document.body.dataset.ready === "1"`)
	if v := p.eval(`document.querySelector("#new-channel-name").value`); v != "" {
		t.Errorf("the new channel's name stayed in its box: %q", v)
	}

	p.say("hello ops")
	p.until("mom's answer in ops", `[...document.querySelectorAll(".run .text")].some(e => e.textContent === "Hello from ops.")`)
	p.until("the run to end", `document.querySelector("#stop").hidden`)
	log := filepath.Join(ww.channelDir("web", "ops"), "log.jsonl")
	lines := apptest.JSONLines(t, log)
	if sender, _ := lines[0]["sender"].(map[string]any); lines[0]["text"] != "hello ops" || sender["id"] != "web:Ada" {
		t.Errorf("%s = %v", log, lines)
	}
	if reqs := ww.waitRequests(1); !strings.Contains(reqs[0].LastUserText(), "[Ada]: hello ops") {
		t.Errorf("the model saw:\n%s", reqs[0].LastUserText())
	}
	if _, err := os.Stat(filepath.Join(ww.channelDir("web", "general"), "log.jsonl")); err == nil {
		t.Error("the message in ops was logged in general too")
	}

	// mom's note answers the person's "stop", so it comes after it.
	p.say("stop")
	p.until("mom's note", `[...document.querySelectorAll("#log .notice")].some(n => n.textContent === "Nothing running.")`)
	p.until("the person's stop", `[...document.querySelectorAll("#log .msg .body")].some(b => b.textContent === "stop")`)
	p.inOrder("the person's stop, then mom's note",
		`[...document.querySelectorAll("#log .msg .body")].find(b => b.textContent === "stop")`,
		`[...document.querySelectorAll("#log .notice")].find(n => n.textContent === "Nothing running.")`)

	// Events written while the page is open: the side bar updates by itself.
	dir := filepath.Join(ww.dir, "workspace", "events")
	bad := []byte(`{"type": "periodic", "channelId": "web/ops", "text": "too late", "schedule": "61 * * * *", "timezone": "Europe/Berlin"}`)
	files := map[string][]byte{
		"reminder.json": []byte(`{"type": "one-shot", "channelId": "web/ops", "text": "Pi day", "at": "2031-03-14T15:30:00+01:00"}`),
		"yearly.json":   []byte(`{"type": "periodic", "channelId": "web/ops", "text": "Happy new year", "schedule": "30 9 1 1 *", "timezone": "Europe/Berlin"}`),
		"broken.json":   bad,
	}
	now := time.Now()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p.until("the events in the side bar", `["reminder.json", "yearly.json"].every(f => [...document.querySelectorAll("#events .file")].some(e => e.textContent === f))`)
	ny, err := time.LoadLocation(browserZone)
	if err != nil {
		t.Fatal(err)
	}
	// 15:30 in Paris (+01:00) on 14 March 2031 is 10:30 in New York, on summer time by then.
	if got, want := p.sideBarEvent("reminder.json"), []string{"reminder.json", "one-shot → web/ops", "Mar 14, 2031, 10:30 AM"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the one-shot shows %q, want %q", got, want)
	}
	want := []string{"yearly.json", `periodic "30 9 1 1 *" Europe/Berlin → web/ops`}
	for _, at := range nextNewYear(t, now) {
		want = append(want, at.In(ny).Format(browserDate))
	}
	if got := p.sideBarEvent("yearly.json"); !reflect.DeepEqual(got, want) {
		t.Errorf("the periodic event shows %q, want %q", got, want)
	}

	// The invalid file shows why, and still does once mom has set it aside.
	_, reason := events.Parse("broken.json", bad, []string{"web"})
	if reason == nil {
		t.Fatal("the broken event parses")
	}
	p.until("the set-aside file", `[...document.querySelectorAll("#events .file")].some(e => e.textContent === ".invalid/broken.json")`)
	if got, want := p.sideBarEvent(".invalid/broken.json"), []string{".invalid/broken.json", "set aside: " + reason.Error()}; !reflect.DeepEqual(got, want) {
		t.Errorf("the invalid event shows %q, want %q", got, want)
	}
	if got := p.sideBarEvent("broken.json"); got != nil {
		t.Errorf("the set-aside file is still listed where it was: %q", got)
	}
	p.screenshot("web-chat-channels-events.png")

	// A deleted event leaves the side bar.
	if err := os.Remove(filepath.Join(dir, "reminder.json")); err != nil {
		t.Fatal(err)
	}
	p.until("the deleted event to go", `![...document.querySelectorAll("#events .file")].some(e => e.textContent === "reminder.json")`)
	if p.sideBarEvent("yearly.json") == nil {
		t.Error("deleting one event took another from the side bar")
	}
	ww.stop()
}
