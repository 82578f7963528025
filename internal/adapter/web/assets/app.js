// mom's web chat: plain JavaScript, no build step. The page acts through the HTTP API and
// listens on one WebSocket, whose frames are described in live.go. The history comes as
// frames too, and both are drawn by frame(), so a reload shows what the live page showed.
// Markdown is rendered (and sanitized) by the server: html fields are inserted as they are.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  name: localStorage.getItem("mom.name") || "",
  channel: localStorage.getItem("mom.channel") || "general",
  ws: null, ready: false, online: false, queue: [], shown: new Set(), runs: new Map(),
  notices: new Map(), cards: new Map(), busy: new Set(), active: new Map(), retry: 0,
  open: null, // the run drawn last whose end has not come: a file mom attaches joins it
  follow: true, // the reader is at the newest message: new ones scroll into view
  eventsSeq: 0, eventsTimer: 0,
};

// ---- HTTP API ----

// unreachable is the error of a request that never got an answer: mom is down or the
// network is. What was typed stays in the box.
const unreachable = "mom is unreachable right now; your message is still in the box. It can be sent once mom is back.";

async function api(method, path, body) {
  const opts = { method, credentials: "same-origin", headers: {} };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    const err = new Error(unreachable);
    err.offline = true;
    throw err;
  }
  let data = null;
  try { data = await res.json(); } catch (e) { /* not JSON */ }
  if (res.status === 401) throw new Error("mom's access token is missing: open the address mom printed when it started.");
  if (!res.ok) {
    const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const chanPath = (ch) => `/api/channels/${encodeURIComponent(ch)}`;

// ---- drawing ----

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function button(label, cls, onClick) {
  const b = el("button", cls, label);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

// setHTML shows the server's rendering of a text in e, and gives code blocks their language
// and a Copy button, and wide tables a scroller. The HTML comes sanitized from the server.
function setHTML(e, html) {
  e.innerHTML = html || "";
  for (const pre of e.querySelectorAll("pre")) {
    const code = pre.querySelector("code");
    const lang = code && (code.className.match(/(?:^|\s)language-(\S+)/) || [])[1];
    const box = el("div", "code");
    const head = el("div", "code-head");
    head.append(el("span", "lang", lang || "text"));
    const copy = button("Copy", "copy", () => copyText(pre.textContent, copy));
    copy.setAttribute("aria-label", `Copy the ${lang || "text"} code`);
    head.append(copy);
    pre.replaceWith(box);
    pre.tabIndex = 0; // it may scroll sideways: reachable by keyboard
    box.append(head, pre);
  }
  for (const t of e.querySelectorAll("table")) {
    const wrap = el("div", "table");
    wrap.tabIndex = 0;
    t.replaceWith(wrap);
    wrap.append(t);
  }
}

// copyText puts text on the clipboard: the Clipboard API where the page is a secure context
// (localhost, https), a selection copied otherwise.
async function copyText(text, btn) {
  try {
    if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
    else {
      const t = el("textarea");
      t.value = text;
      t.setAttribute("readonly", "");
      t.style.position = "fixed"; t.style.opacity = "0";
      document.body.append(t);
      t.select();
      document.execCommand("copy");
      t.remove();
    }
    btn.textContent = "Copied";
  } catch (e) {
    btn.textContent = "Copy failed";
  }
  setTimeout(() => { btn.textContent = "Copy"; }, 1500);
}

function time(ts) {
  const d = ts ? new Date(ts) : new Date();
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// visibleName shows the characters that can disguise a file name (controls, and the bidi
// overrides that make "invoice\u202efdp.exe" read as "invoiceexe.pdf") as escapes, as mom
// does on a terminal.
function visibleName(s) {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function fileLink(ch, att) {
  const box = el("div", "file");
  const name = visibleName(att.filename || "");
  if (!att.localPath) {
    box.append(el("span", "failed", `${name}: ${att.error || "not saved"}`));
    return box;
  }
  const file = att.localPath.split("/").pop();
  const href = `${chanPath(ch)}/files/${encodeURIComponent(file)}`;
  const a = el("a");
  a.href = href;
  a.setAttribute("download", name);
  if ((att.mimeType || "").startsWith("image/")) {
    const img = el("img");
    img.src = href;
    img.alt = name;
    img.addEventListener("load", settle); // taller now: keep the newest message in view
    a.append(img);
  }
  a.append(document.createTextNode(`⬇ ${name}`));
  box.append(a);
  return box;
}

function files(ch, atts) {
  const box = el("div", "files");
  for (const att of atts) box.append(fileLink(ch, att));
  return box;
}

function message(f) {
  const m = f.message;
  if (state.shown.has(m.id)) {
    // Drawn from the answer to a send, before its frame came: now with its rendering.
    const plain = f.html && document.querySelector(`#log .msg[data-id="${CSS.escape(m.id)}"] .body[data-plain]`);
    if (plain) { setHTML(plain, f.html); delete plain.dataset.plain; }
    return;
  }
  state.shown.add(m.id);
  const bot = m.sender && m.sender.isBot;
  const ch = m.channelId || state.channel;
  const r = bot && state.open && state.runs.get(state.open);
  if (r && m.attachments && m.attachments.length) {
    // A file mom attaches while it works belongs with that run's answer.
    r.text = null;
    r.body.append(files(ch, m.attachments));
    return;
  }
  const box = el("div", bot ? "msg mom" : "msg");
  box.dataset.id = m.id;
  const meta = el("div", "meta");
  meta.append(el("span", "who", bot ? "mom" : (m.sender.displayName || m.sender.username)), el("span", "", time(m.ts)));
  box.append(meta);
  if (m.text && !(bot && m.attachments && m.attachments.length)) {
    const body = el("div", "body");
    if (f.html !== null) setHTML(body, f.html);
    else { body.textContent = m.text; body.dataset.plain = "1"; }
    box.append(body);
  }
  if (m.attachments && m.attachments.length) box.append(files(ch, m.attachments));
  $("#log").append(box);
}

// A run is drawn as one message from mom that grows: "working" until something shows, then
// text blocks, tool steps and status lines, then its outcome and usage.
function runOf(f) {
  let r = state.runs.get(f.run);
  if (r) return r;
  const box = el("div", "msg mom run");
  box.dataset.run = f.run;
  const meta = el("div", "meta");
  meta.append(el("span", "who", "mom"), el("span", "", time(f.ts)));
  const body = el("div", "body");
  const working = el("div", "working", "mom is working…");
  body.append(working);
  box.append(meta, body);
  $("#log").append(box);
  r = { box, body, working, text: null, tools: new Map(), statuses: new Map(), trigger: f.trigger, event: f.event };
  state.runs.set(f.run, r);
  return r;
}

function runFrame(f) {
  const r = runOf(f);
  if (f.type !== "run_start" && r.working) { r.working.remove(); r.working = null; }
  switch (f.type) {
    case "run_start":
      state.open = f.run;
      if (f.event) r.body.insertBefore(el("div", "status", `⏰ event ${f.event}`), r.working);
      break;
    case "message_start":
      // An answer still open here was an attempt that failed: the retry writes it anew.
      if (r.text) r.text.remove();
      r.text = null;
      break;
    case "text":
      if (!r.text) { r.text = el("div", "text"); r.body.append(r.text); }
      setHTML(r.text, f.html);
      break;
    case "message_end":
      r.text = null;
      break;
    case "tool_start": {
      r.text = null;
      const d = el("details", "tool running");
      const label = f.text || f.name;
      const sum = el("summary", "", `→ ${label}`);
      d.append(sum, el("div", "label", `${f.name} arguments`), el("pre", "args", f.args || ""));
      r.tools.set(f.id, { d, sum, label });
      r.body.append(d);
      break;
    }
    case "tool_end": {
      const t = r.tools.get(f.id);
      if (!t) break;
      t.d.classList.remove("running");
      if (f.isError) t.d.classList.add("failed");
      t.sum.textContent = `→ ${t.label} ${f.isError ? "✗" : "✓"} (${f.ms || 0} ms)`;
      t.d.append(el("div", "label", f.isError ? "error" : "result"), el("pre", "output", f.output || "(no output)"));
      break;
    }
    case "status": {
      // A status with an id (the retries, a compaction) replaces the one before it; one
      // without text takes it away.
      let line;
      if (!f.text) {
        const old = f.id && r.statuses.get(f.id);
        if (old) { old.remove(); r.statuses.delete(f.id); }
        break;
      }
      if (f.detail) {
        line = el("details", "status");
        line.append(el("summary", "", f.text), el("pre", "", f.detail));
      } else line = el("div", "status", f.text);
      const old = f.id && r.statuses.get(f.id);
      if (old) old.replaceWith(line); else r.body.append(line);
      if (f.id) r.statuses.set(f.id, line);
      break;
    }
    case "run_end":
      if (state.open === f.run) state.open = null;
      // [SILENT]: the answer asks for no reply, so the run leaves no trace.
      if (f.silent) { r.box.remove(); state.runs.delete(f.run); break; }
      if (f.stopReason === "aborted") r.body.append(el("div", "outcome stopped", "Stopped."));
      else if (f.stopReason === "error") r.body.append(errorCard(f, r));
      else if (f.stopReason === "length") r.body.append(el("div", "outcome", "(the answer was cut off at the model's output limit)"));
      else if (f.stopReason === "interrupted") r.body.append(el("div", "outcome stopped", "mom stopped before this run ended."));
      if (f.usage) r.box.append(el("div", "usage", `↳ ${f.usage}`));
      break;
  }
}

// card draws a card: a title, text (HTML from the server), folded details, an image, and
// buttons, each {label, style, onClick}. Errors, questions (approvals) and codes to scan
// (linking WhatsApp) are all cards.
function card(c, buttons, cls) {
  const box = el("div", `card${cls ? " " + cls : ""}`);
  box.setAttribute("role", "group");
  const title = el("div", "card-title", c.title || "");
  title.id = `card-${Math.random().toString(36).slice(2)}`;
  box.setAttribute("aria-labelledby", title.id);
  box.append(title);
  if (c.html) { const t = el("div", "card-text body"); setHTML(t, c.html); box.append(t); }
  if (c.image) { const img = el("img"); img.src = c.image; img.alt = c.title || "image"; box.append(img); }
  if (c.detail) {
    const d = el("details");
    d.append(el("summary", "", "Details"), el("pre", "", c.detail));
    box.append(d);
  }
  if (buttons && buttons.length) {
    const row = el("div", "buttons");
    for (const b of buttons) row.append(button(b.label, b.style || "", b.onClick));
    box.append(row);
  }
  return box;
}

// cardDone replaces a card's buttons with what became of it.
function cardDone(box, text) {
  const row = box.querySelector(".buttons");
  if (row) row.remove();
  if (text) box.append(el("div", "done", text));
}

// errorCard is a failed run's outcome: what went wrong in a few words, the error itself
// folded, and Retry, which says the person's message again.
function errorCard(f, r) {
  const buttons = [];
  if (r.trigger && !r.event) {
    buttons.push({ label: "Retry", style: "primary", onClick: async (ev) => {
      const b = ev.currentTarget;
      b.disabled = true;
      try {
        await api("POST", `${chanPath(state.channel)}/retry`, { name: state.name, id: r.trigger });
        toBottom();
      } catch (e) {
        showError("#send-error", e.message);
      } finally {
        b.disabled = false; // as after a reload: the card stays what it was
      }
    } });
  }
  return card({ title: f.summary || "Something went wrong", detail: f.error || "" }, buttons, "error");
}

// serverCard draws a card the server sent; a press goes back to the server, which decides.
function serverCard(f) {
  if (state.cards.has(f.id)) return;
  $("#log").append(drawServerCard(f));
}

// updateCard redraws, where it is, a card the server changed (a QR code WhatsApp renewed).
function updateCard(f) {
  const old = state.cards.get(f.id);
  if (!old) { serverCard(f); return; }
  old.replaceWith(drawServerCard(f));
}

// drawServerCard makes the box of a card the server sent, and keeps it by the card's id.
function drawServerCard(f) {
  const c = f.card || {};
  const box = card(c, (c.buttons || []).map((b) => ({ label: b.label, style: b.style, onClick: async (ev) => {
    for (const x of box.querySelectorAll(".buttons button")) x.disabled = true;
    try {
      const res = await api("POST", `${chanPath(state.channel)}/cards/${encodeURIComponent(f.id)}`, { name: state.name, button: b.id });
      cardDone(box, res.done);
    } catch (e) {
      showError("#send-error", e.message);
      for (const x of box.querySelectorAll(".buttons button")) x.disabled = false;
    }
  } })));
  box.dataset.card = f.id;
  state.cards.set(f.id, box);
  return box;
}

function notice(f) {
  if (f.type === "notice" && !state.notices.has(f.id)) {
    const n = el("div", "notice");
    n.setAttribute("role", "note");
    setHTML(n, f.html);
    state.notices.set(f.id, n);
    $("#log").append(n);
  } else if ((f.type === "notice" || f.type === "notice_edit") && state.notices.has(f.id)) {
    setHTML(state.notices.get(f.id), f.html);
  } else if (f.type === "notice_gone" && state.notices.has(f.id)) {
    state.notices.get(f.id).remove();
  }
}

function setBusy(ch, on) {
  if (on) state.busy.add(ch); else state.busy.delete(ch);
  for (const li of document.querySelectorAll("#channels li")) li.classList.toggle("busy", state.busy.has(li.dataset.id));
  const stop = $("#stop");
  const busy = state.busy.has(state.channel);
  if (!busy) { stop.textContent = "Stop"; stop.disabled = false; } // ready for the next run
  stop.hidden = !busy;
}

// ---- scrolling ----

// The view follows new messages only while the reader is at the newest one; otherwise a
// "New messages" button says there is more below.
function atBottom() {
  const log = $("#log");
  return log.scrollHeight - log.scrollTop - log.clientHeight < 48;
}

function toBottom() {
  const log = $("#log");
  log.scrollTop = log.scrollHeight;
  state.follow = true;
  $("#new-messages").hidden = true;
}

// settle keeps the newest message in view after the page grew, if the reader follows.
function settle() {
  if (state.follow) toBottom();
}

// grew is called after frames changed the page.
function grew() {
  if (state.follow) toBottom();
  else $("#new-messages").hidden = false;
}

// ---- live connection ----

// frame draws one frame, live or from the history.
function frame(f, live) {
  if (live) {
    if (f.type === "run_start") { setBusy(f.channel, true); state.active.set(f.channel, f.run); }
    if (f.type === "run_end") { setBusy(f.channel, false); state.active.delete(f.channel); }
    if (f.type === "channel") { loadChannels(); return; }
    if (f.type === "events") { loadEvents(); return; }
  }
  if (f.channel !== state.channel) return;
  if (f.type === "message") message(f);
  else if (f.type.startsWith("notice")) notice(f);
  else if (f.type === "card") serverCard(f);
  else if (f.type === "card_update") updateCard(f);
  else if (f.type === "card_done") { const c = state.cards.get(f.id); if (c) cardDone(c, f.text); }
  else if (f.run) runFrame(f);
}

function setOnline(on) {
  state.online = on;
  $("#offline").hidden = on;
  $("#send").disabled = !on;
  $("#conn").textContent = on ? "connected" : "offline";
  $("#conn").classList.toggle("up", on);
}

function connect() {
  if (state.ws) { state.ws.onclose = null; state.ws.close(); }
  state.ready = false;
  state.queue = [];
  state.busy.clear();
  state.active.clear();
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  state.ws = ws;
  ws.onmessage = (ev) => {
    if (ws !== state.ws) return; // a socket being replaced
    const f = JSON.parse(ev.data);
    if (f.type === "hello") { loadHistory(ws); loadEvents(); return; } // changes while away
    if (!state.ready) { state.queue.push(f); return; }
    frame(f, true);
    grew();
  };
  ws.onclose = () => {
    if (ws !== state.ws) return;
    setOnline(false);
    setBusy(state.channel, false);
    state.retry = Math.min(state.retry + 1, 10);
    setTimeout(connect, state.retry * 500);
  };
}

// runsFrom is where, in channel ch's log.jsonl, the runs begin that the page holds frames of
// (see frame in live.go): those runs are drawn from the frames, so the history leaves them
// out, and each shows once.
function runsFrom(ch) {
  let from;
  for (const f of state.queue) {
    if (f.type === "run_start" && f.channel === ch && f.from !== undefined && (from === undefined || f.from < from)) from = f.from;
  }
  return from;
}

// loadHistory draws the channel from its history, then the frames that came meanwhile (the
// run in progress, which the server replays on connect, and anything since).
async function loadHistory(ws) {
  const ch = state.channel;
  try {
    let from, data;
    do {
      from = runsFrom(ch);
      data = await api("GET", `${chanPath(ch)}/messages${from === undefined ? "" : `?runsFrom=${from}`}`);
      if (ws !== state.ws) return; // the channel changed or the socket dropped: a newer load runs
      // A run that began while the request was on its way may have logged an answer the
      // history now has: ask again, leaving it out. Later runs begin further on, so this
      // happens at most once.
    } while (runsFrom(ch) !== from);
    const follow = state.follow || !$("#log").childElementCount;
    $("#log").replaceChildren();
    state.shown.clear(); state.runs.clear(); state.notices.clear(); state.cards.clear(); state.open = null;
    for (const f of data.frames) frame(f, false);
    state.ready = true;
    for (const f of state.queue) frame(f, true);
    state.queue = [];
    state.retry = 0;
    setOnline(true);
    setBusy(ch, state.busy.has(ch));
    state.follow = follow;
    grew();
    document.body.dataset.ready = "1";
  } catch (e) {
    showError("#send-error", e.message);
  }
}

// ---- channels and the drawer ----

async function loadChannels() {
  const data = await api("GET", "/api/channels");
  const ul = $("#channels");
  const focused = document.activeElement && document.activeElement.closest("#channels li");
  ul.replaceChildren();
  for (const c of data.channels) {
    const li = el("li", c.id === state.channel ? "active" : "");
    li.dataset.id = c.id;
    li.classList.toggle("busy", state.busy.has(c.id));
    const b = button(`# ${c.name}`, "", () => openChannel(c.id));
    if (c.id === state.channel) b.setAttribute("aria-current", "page");
    li.append(b);
    ul.append(li);
    if (focused && focused.dataset.id === c.id) b.focus();
  }
  state.adapter = data.adapter;
  $("#channel-title").textContent = `${data.adapter}/${state.channel}`;
}

function openChannel(id) {
  state.channel = id;
  localStorage.setItem("mom.channel", id);
  delete document.body.dataset.ready;
  for (const li of document.querySelectorAll("#channels li")) {
    li.classList.toggle("active", li.dataset.id === id);
    const b = li.querySelector("button");
    if (li.dataset.id === id) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
  }
  $("#channel-title").textContent = `${state.adapter || "web"}/${id}`;
  $("#log").replaceChildren();
  state.follow = true;
  $("#new-messages").hidden = true;
  if (drawerOpen()) closeDrawer(false);
  connect(); // the server replays runs in progress on connect, then history loads
}

const narrow = window.matchMedia("(max-width: 700px)");

function drawerOpen() { return $("#side").classList.contains("open"); }

function openDrawer() {
  $("#side").classList.add("open");
  $("#scrim").hidden = false;
  $("#menu").setAttribute("aria-expanded", "true");
  const current = $("#channels li.active button") || $("#channels button");
  if (current) current.focus();
}

// closeDrawer closes the channel list; focus goes back to ☰, or to the message box when a
// channel was picked.
function closeDrawer(toMenu) {
  $("#side").classList.remove("open");
  $("#scrim").hidden = true;
  $("#menu").setAttribute("aria-expanded", "false");
  if (toMenu) $("#menu").focus(); else if (narrow.matches) $("#text").focus();
}

// ---- events ----

// loadEvents lists workspace/events in the side bar. The server sends an "events" frame when
// a file there changes (added, edited, fired, deleted, set aside); a periodic event's next
// time passing changes no file, so the list also reloads itself just after the soonest time
// it shows.
async function loadEvents() {
  const seq = ++state.eventsSeq;
  const ul = $("#events");
  try {
    const data = await api("GET", "/api/events");
    if (seq !== state.eventsSeq) return; // a newer load is on its way
    reloadEventsAfter(data.events);
    ul.replaceChildren();
    if (!data.events.length) ul.append(el("li", "empty", "none: mom schedules them in workspace/events"));
    for (const ev of data.events) {
      const li = el("li");
      li.append(el("div", "file", visibleName(ev.file)));
      if (ev.error) { li.append(el("div", "bad", ev.error)); ul.append(li); continue; }
      li.append(el("div", "", `${ev.type}${ev.schedule ? ` "${ev.schedule}" ${ev.zone}` : ""} → ${ev.channel}`));
      if (!ev.next.length) li.append(el("div", "when", "will not fire again"));
      for (const t of ev.next) li.append(el("div", "when", new Date(t).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })));
      li.title = ev.text;
      ul.append(li);
    }
  } catch (e) {
    if (seq === state.eventsSeq && !e.offline) ul.replaceChildren(el("li", "bad", e.message));
  }
}

// reloadEventsAfter reloads the list a moment after the soonest fire time it shows (at least
// 2 s on, so a browser whose clock runs ahead of mom's does not ask in a loop), and at least
// hourly.
function reloadEventsAfter(events) {
  clearTimeout(state.eventsTimer);
  let soonest = Infinity;
  for (const ev of events) if (ev.next.length) soonest = Math.min(soonest, Date.parse(ev.next[0]));
  if (soonest === Infinity) return;
  const wait = Math.min(Math.max(soonest - Date.now() + 1000, 2000), 3600000);
  state.eventsTimer = setTimeout(loadEvents, wait);
}

// ---- composing ----

function showError(sel, msg) {
  const p = $(sel);
  p.textContent = msg || "";
  p.hidden = !msg;
}

function showPicked() {
  const picked = $("#file").files;
  const box = $("#picked");
  box.hidden = !picked.length;
  box.replaceChildren();
  if (!picked.length) return;
  box.append(document.createTextNode(`Attached: ${Array.from(picked).map((f) => f.name).join(", ")}`));
  box.append(button("remove", "link", () => { $("#file").value = ""; showPicked(); $("#attach").focus(); }));
}

// grow fits the message box to what is typed, up to 40% of the window.
function grow() {
  const t = $("#text");
  t.style.height = "auto";
  t.style.height = `${t.scrollHeight + 2}px`;
}

async function send(ev) {
  ev.preventDefault();
  if (!state.name) { askName(); return; }
  if (!state.online) { showError("#send-error", unreachable); return; }
  const text = $("#text").value;
  const picked = $("#file").files;
  if (!text.trim() && !picked.length) return;
  const form = new FormData();
  form.append("name", state.name);
  form.append("text", text);
  for (const f of picked) form.append("file", f, f.name);
  $("#send").disabled = true;
  try {
    const m = await api("POST", `${chanPath(state.channel)}/messages`, form);
    message({ message: m, html: null, channel: state.channel }); // unless its frame came first
    $("#text").value = "";
    $("#file").value = "";
    grow();
    showPicked();
    showError("#send-error", "");
    toBottom();
  } catch (e) {
    showError("#send-error", e.message); // what was typed stays in the box
  } finally {
    $("#send").disabled = !state.online;
    $("#text").focus();
  }
}

async function stop() {
  const b = $("#stop");
  b.disabled = true;
  b.textContent = "Stopping…";
  try {
    await api("POST", `${chanPath(state.channel)}/stop`, { name: state.name || "someone" });
  } catch (e) {
    showError("#send-error", e.message);
    b.disabled = false;
    b.textContent = "Stop";
  }
}

async function createChannel(ev) {
  ev.preventDefault();
  const name = $("#new-channel-name").value.trim().toLowerCase();
  if (!name) return;
  try {
    await api("POST", "/api/channels", { name });
    $("#new-channel-name").value = "";
    showError("#new-channel-error", "");
    await loadChannels();
    openChannel(name);
  } catch (e) {
    showError("#new-channel-error", e.message);
  }
}

// askName opens the name dialog, with why the name kept in this browser cannot be used
// when there is a reason.
function askName(why) {
  $("#name-input").value = state.name;
  showError("#name-error", typeof why === "string" ? why : "");
  if (!$("#name-dialog").open) $("#name-dialog").showModal();
}

// saveName asks mom whether the name can be used (which names can is mom's to say: not its
// own, for one) and keeps it as mom will show it; otherwise the dialog stays, saying why.
async function saveName(ev) {
  ev.preventDefault();
  try {
    const data = await api("POST", "/api/name", { name: $("#name-input").value });
    state.name = data.name;
    localStorage.setItem("mom.name", data.name);
    $("#who").textContent = data.name;
    showError("#name-error", "");
    $("#name-dialog").close();
    $("#text").focus();
  } catch (e) {
    showError("#name-error", e.message);
  }
}

function start() {
  $("#composer").addEventListener("submit", send);
  $("#text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("#composer").requestSubmit(); }
  });
  $("#text").addEventListener("input", grow);
  $("#attach").addEventListener("click", () => $("#file").click());
  $("#file").addEventListener("change", showPicked);
  $("#stop").addEventListener("click", stop);
  $("#new-channel").addEventListener("submit", createChannel);
  $("#events-refresh").addEventListener("click", loadEvents);
  $("#who").addEventListener("click", () => askName());
  $("#name-form").addEventListener("submit", saveName);
  $("#menu").addEventListener("click", () => (drawerOpen() ? closeDrawer(true) : openDrawer()));
  $("#close-side").addEventListener("click", () => closeDrawer(true));
  $("#scrim").addEventListener("click", () => closeDrawer(true));
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && drawerOpen()) closeDrawer(true); });
  narrow.addEventListener("change", () => { if (!narrow.matches && drawerOpen()) closeDrawer(false); });
  $("#log").addEventListener("scroll", () => {
    state.follow = atBottom();
    if (state.follow) $("#new-messages").hidden = true;
  }, { passive: true });
  $("#new-messages").addEventListener("click", toBottom);
  $("#who").textContent = state.name || "(no name yet)";
  loadChannels().then(() => openChannel(state.channel)).catch((e) => showError("#send-error", e.message));
  loadEvents();
  if (!state.name) askName();
  else api("POST", "/api/name", { name: state.name }).catch((e) => { if (e.status === 400) askName(e.message); });
}

start();
