// mom's web chat: plain JavaScript, no build step. The page acts through the HTTP API and
// listens on one WebSocket, whose frames are described in live.go.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = {
  name: localStorage.getItem("mom.name") || "",
  channel: localStorage.getItem("mom.channel") || "general",
  ws: null, ready: false, queue: [], shown: new Set(), runs: new Map(),
  notices: new Map(), busy: new Set(), active: new Map(), retry: 0,
  eventsSeq: 0, eventsTimer: 0,
};

// ---- HTTP API ----

async function api(method, path, body) {
  const opts = { method, credentials: "same-origin", headers: {} };
  if (body instanceof FormData) opts.body = body;
  else if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, opts);
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

// ---- rendering ----

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// escapeHTML makes text safe inside HTML, attribute values included. It also shows a NUL as
// U+FFFD, as browsers do wherever they meet one; the HTML parser would drop it.
function escapeHTML(s) {
  return s.replace(/[&<>"'\u0000]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "\u0000": "\uFFFD" }[c]));
}

// md renders the little markdown models write: code blocks, inline code, bold, italics,
// links, paragraphs. Everything is escaped first, so no HTML from a message runs.
function md(src) {
  const parts = src.split(/```/);
  let out = "";
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const body = part.replace(/^[\w+-]*\n/, "");
      out += `<pre><code>${escapeHTML(body.replace(/\n$/, ""))}</code></pre>`;
      return;
    }
    const paras = part.split(/\n{2,}/).filter((p) => p.trim() !== "");
    for (const p of paras) out += `<p>${inline(p.trim())}</p>`;
  });
  return out;
}

// inline renders code spans, links, bold and italics in one paragraph. The text is escaped
// first, so it holds no "<" of its own; each code span and link is then set aside as a
// placeholder "<n>", which nothing a person writes can spell and no later rule can reach
// into (a "**" in a link's address stays in the address).
function inline(s) {
  const held = [];
  const hold = (html) => `<${held.push(html) - 1}>`;
  const unhold = (t) => t.replace(/<(\d+)>/g, (_, i) => unhold(held[+i]));
  s = escapeHTML(s);
  s = s.replace(/`([^`\n]+)`/g, (_, c) => hold(`<code>${c}</code>`));
  // A link's text and address stop at the next "[": a line of "[" or of "[a](https://x"
  // with nothing to close them would otherwise be scanned to its end from every "[".
  s = s.replace(/\[([^[\]\n]+)\]\((https?:\/\/[^)\s<[]+)\)/g, (_, text, url) =>
    hold(`<a href="${url}" target="_blank" rel="noopener noreferrer">${emphasis(text)}</a>`));
  s = emphasis(s).replace(/\n/g, "<br>");
  return unhold(s);
}

// emphasis renders bold and italics in escaped text.
function emphasis(s) {
  s = s.replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>");
  return s.replace(/(^|[\s(])[_*]([^_*\n]+)[_*](?=$|[\s).,!?:;])/g, "$1<em>$2</em>");
}

// setMarkdown shows src rendered in e; should rendering ever fail, it shows src as plain
// text, so one message cannot keep a channel from showing.
function setMarkdown(e, src) {
  try {
    e.innerHTML = md(src);
  } catch (err) {
    e.textContent = src;
  }
}

function time(ts) {
  const d = ts ? new Date(ts) : new Date();
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function scrollDown() {
  const log = $("#log");
  log.scrollTop = log.scrollHeight;
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
    a.append(img);
  }
  a.append(document.createTextNode(`⬇ ${name}`));
  box.append(a);
  return box;
}

function renderMessage(m) {
  if (state.shown.has(m.id)) return;
  state.shown.add(m.id);
  const bot = m.sender && m.sender.isBot;
  const run = bot && state.active.get(m.channelId || state.channel);
  if (run && state.runs.has(run) && m.attachments && m.attachments.length) {
    // A file mom attaches while it works belongs with that run's answer.
    const r = state.runs.get(run);
    const files = el("div", "files");
    for (const att of m.attachments) files.append(fileLink(m.channelId || state.channel, att));
    r.text = null;
    r.body.append(files);
    scrollDown();
    return;
  }
  const box = el("div", bot ? "msg mom" : "msg");
  box.dataset.id = m.id;
  const meta = el("div", "meta");
  meta.append(el("span", "who", bot ? "mom" : (m.sender.displayName || m.sender.username)), el("span", "", time(m.ts)));
  box.append(meta);
  if (m.text && !(bot && m.attachments && m.attachments.length)) {
    const body = el("div", "body");
    setMarkdown(body, m.text);
    box.append(body);
  }
  if (m.attachments && m.attachments.length) {
    const files = el("div", "files");
    for (const att of m.attachments) files.append(fileLink(m.channelId || state.channel, att));
    box.append(files);
  }
  $("#log").append(box);
  scrollDown();
}

// A run is drawn as one message from mom that grows: text blocks, tool steps, status lines.
function runOf(f) {
  let r = state.runs.get(f.run);
  if (r) return r;
  const box = el("div", "msg mom run");
  box.dataset.run = f.run;
  const meta = el("div", "meta");
  meta.append(el("span", "who", "mom"), el("span", "", time()));
  const body = el("div", "body");
  box.append(meta, body);
  $("#log").append(box);
  r = { box, body, text: null, buf: "", tools: new Map() };
  state.runs.set(f.run, r);
  return r;
}

function runFrame(f) {
  const r = runOf(f);
  switch (f.type) {
    case "run_start":
      if (f.event) r.body.append(el("div", "status", `⏰ event ${f.event}`));
      break;
    case "message_start":
      // An answer still open here was an attempt that failed: the retry writes it anew.
      if (r.text) r.text.remove();
      r.text = null;
      break;
    case "text":
      if (!r.text) { r.text = el("div", "text"); r.buf = ""; r.body.append(r.text); }
      r.buf += f.text;
      setMarkdown(r.text, r.buf);
      break;
    case "message_end":
      r.text = null;
      break;
    case "tool_start": {
      r.text = null;
      const d = el("details", "tool running");
      const sum = el("summary", "", `→ ${f.text || f.name}`);
      d.append(sum, el("div", "label", `${f.name} arguments`), el("pre", "args", f.args || ""));
      r.tools.set(f.id, { d, sum, label: f.text || f.name });
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
    case "status":
      r.body.append(el("div", "status", f.text));
      break;
    case "run_end":
      // [SILENT]: the answer asks for no reply, so the run leaves no trace.
      if (f.silent) { r.box.remove(); state.runs.delete(f.run); break; }
      if (f.stopReason === "aborted") r.body.append(el("div", "outcome stopped", "Stopped."));
      else if (f.stopReason === "error") r.body.append(el("div", "outcome error", `error: ${f.error}`));
      else if (f.stopReason === "length") r.body.append(el("div", "outcome", "(the answer was cut off at the model's output limit)"));
      if (f.usage) r.box.append(el("div", "usage", `↳ ${f.usage}`));
      break;
  }
  scrollDown();
}

function notice(f) {
  if (f.type === "notice") {
    const n = el("div", "notice");
    n.innerHTML = inline(f.text);
    state.notices.set(f.id, n);
    $("#log").append(n);
    scrollDown();
  } else if (f.type === "notice_edit" && state.notices.has(f.id)) {
    state.notices.get(f.id).innerHTML = inline(f.text);
  } else if (f.type === "notice_gone" && state.notices.has(f.id)) {
    state.notices.get(f.id).remove();
  }
}

function setBusy(ch, on) {
  if (on) state.busy.add(ch); else state.busy.delete(ch);
  for (const li of document.querySelectorAll("#channels li")) li.classList.toggle("busy", state.busy.has(li.dataset.id));
  $("#stop").hidden = !state.busy.has(state.channel);
}

// ---- live connection ----

function frame(f) {
  if (f.type === "run_start") { setBusy(f.channel, true); state.active.set(f.channel, f.run); }
  if (f.type === "run_end") { setBusy(f.channel, false); state.active.delete(f.channel); }
  if (f.type === "channel") { loadChannels(); return; }
  if (f.type === "events") { loadEvents(); return; }
  if (f.channel !== state.channel) return;
  if (f.type === "message") renderMessage(f.message);
  else if (f.type.startsWith("notice")) notice(f);
  else if (f.run) runFrame(f);
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
    if (state.ready) frame(f); else state.queue.push(f);
  };
  ws.onclose = () => {
    $("#conn").textContent = "offline";
    $("#conn").classList.remove("up");
    state.retry = Math.min(state.retry + 1, 10);
    setTimeout(connect, state.retry * 500);
  };
}

// runsFrom is where, in channel ch's log.jsonl, the runs begin that the page holds frames of
// (see frame in live.go): mom's answers from there on are drawn from the frames, so the
// history leaves them out, and each shows once.
function runsFrom(ch) {
  let from;
  for (const f of state.queue) {
    if (f.type === "run_start" && f.channel === ch && f.from !== undefined && (from === undefined || f.from < from)) from = f.from;
  }
  return from;
}

// loadHistory draws the channel from log.jsonl, then the frames that came meanwhile (the
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
    $("#log").replaceChildren();
    state.shown.clear(); state.runs.clear(); state.notices.clear();
    for (const m of data.messages) renderMessage(m);
    state.ready = true;
    for (const f of state.queue) frame(f);
    state.queue = [];
    state.retry = 0;
    $("#conn").textContent = "connected";
    $("#conn").classList.add("up");
    setBusy(ch, state.busy.has(ch));
    document.body.dataset.ready = "1";
  } catch (e) {
    showError("#send-error", e.message);
  }
}

// ---- channels ----

async function loadChannels() {
  const data = await api("GET", "/api/channels");
  const ul = $("#channels");
  ul.replaceChildren();
  for (const c of data.channels) {
    const li = el("li", c.id === state.channel ? "active" : "", `# ${c.name}`);
    li.dataset.id = c.id;
    li.classList.toggle("busy", state.busy.has(c.id));
    li.onclick = () => openChannel(c.id);
    ul.append(li);
  }
  state.adapter = data.adapter;
  $("#channel-title").textContent = `${data.adapter}/${state.channel}`;
}

function openChannel(id) {
  state.channel = id;
  localStorage.setItem("mom.channel", id);
  delete document.body.dataset.ready;
  for (const li of document.querySelectorAll("#channels li")) li.classList.toggle("active", li.dataset.id === id);
  $("#channel-title").textContent = `${state.adapter || "web"}/${id}`;
  $("#log").replaceChildren();
  connect(); // the server replays runs in progress on connect, then history loads
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
    if (seq === state.eventsSeq) ul.replaceChildren(el("li", "bad", e.message));
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
  const files = $("#file").files;
  const box = $("#picked");
  box.hidden = !files.length;
  box.replaceChildren();
  if (!files.length) return;
  box.append(document.createTextNode(`Attached: ${Array.from(files).map((f) => f.name).join(", ")}`));
  const clear = el("button", "link", "remove");
  clear.type = "button";
  clear.onclick = () => { $("#file").value = ""; showPicked(); };
  box.append(clear);
}

async function send(ev) {
  ev.preventDefault();
  if (!state.name) { askName(); return; }
  const text = $("#text").value;
  const files = $("#file").files;
  if (!text.trim() && !files.length) return;
  const form = new FormData();
  form.append("name", state.name);
  form.append("text", text);
  for (const f of files) form.append("file", f, f.name);
  $("#send").disabled = true;
  try {
    const m = await api("POST", `${chanPath(state.channel)}/messages`, form);
    renderMessage(m);
    $("#text").value = "";
    $("#file").value = "";
    showPicked();
    showError("#send-error", "");
  } catch (e) {
    showError("#send-error", e.message); // what was typed stays in the box
  } finally {
    $("#send").disabled = false;
    $("#text").focus();
  }
}

async function stop() {
  try {
    await api("POST", `${chanPath(state.channel)}/stop`, { name: state.name || "someone" });
  } catch (e) {
    showError("#send-error", e.message);
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
  showError("#name-error", why);
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
  } catch (e) {
    showError("#name-error", e.message);
  }
}

function start() {
  $("#composer").addEventListener("submit", send);
  $("#text").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) { e.preventDefault(); $("#composer").requestSubmit(); }
  });
  $("#file").addEventListener("change", showPicked);
  $("#stop").addEventListener("click", stop);
  $("#new-channel").addEventListener("submit", createChannel);
  $("#events-refresh").addEventListener("click", loadEvents);
  $("#who").addEventListener("click", askName);
  $("#name-form").addEventListener("submit", saveName);
  $("#who").textContent = state.name || "(no name yet)";
  loadChannels().then(() => openChannel(state.channel)).catch((e) => showError("#send-error", e.message));
  loadEvents();
  if (!state.name) askName();
  else api("POST", "/api/name", { name: state.name }).catch((e) => { if (e.status === 400) askName(e.message); });
}

start();
