// Package fakeweb is a loopback browser for mom's web chat, for tests. The web chat's other
// party is a person's browser, so unlike the other fakes this one is a client: it finds the
// address mom prints (Announced), calls the HTTP API with the access token (Call, with
// MessageForm for a message as the page sends it), opens the WebSocket (Dial), and plays a
// tab that keeps the frames it reads and draws a channel from the history and those frames
// the way app.js does (Tab). A Browser does the same for a test, failing it when the chat
// cannot be reached.
//
// The in-process tests of package web and the binary's tests in cmd/mom (the conformance
// suite's driver, the browser tests) share it, and share ScriptMidRun, the fake model's
// answers that put a run in the middle of its work while a page reloads.
package fakeweb
