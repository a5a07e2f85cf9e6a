// gammon director dashboard: plain JS, no build step. Data: /api/room, then server-sent events.
"use strict";
const $ = (id) => document.getElementById(id);
const state = { tables: new Map(), incidents: new Map(), results: [], offset: 0, detail: null };

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props || {});
  for (const child of children) node.append(child);
  return node;
}

async function api(path, options) {
  const response = await fetch(path, Object.assign({ credentials: "same-origin" }, options));
  if (response.status === 401 && path !== "/api/login") { showLogin(); throw new Error("log in first"); }
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function postJson(path, data) {
  return api(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data) });
}

function showLogin() { $("app").hidden = true; $("login").hidden = false; }

function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return minutes + ":" + String(total % 60).padStart(2, "0");
}

function liveClocks(view) {
  const clocks = view.status.clocks;
  const reserve = clocks.reserve_ms.slice();
  let allowance = clocks.allowance_ms;
  if (clocks.enabled && clocks.running !== null && view.online) {
    const elapsed = Date.now() + state.offset - view.received_ms;
    allowance = Math.max(0, clocks.allowance_ms - elapsed);
    reserve[clocks.running] -= Math.max(0, elapsed - clocks.allowance_ms);
  }
  return { reserve, allowance };
}

function tableClass(view, clocks) {
  if (!view.online) return "st-offline";
  const status = view.status;
  if (!status) return "st-paused";
  if (view.open_incidents > 0 || status.state === "director-called" || status.state === "incident")
    return "st-attention";
  if (status.clocks.enabled && clocks.reserve.some((ms) => ms <= 0)) return "st-flag";
  if (status.state === "finished") return "st-finished";
  if (status.state === "playing") return "st-playing";
  return "st-paused";
}

function tableCard(view) {
  const card = el("div", { className: "card", id: "table-" + view.table });
  const status = view.status;
  if (!status) {
    card.append(el("h3", {}, view.table), el("p", {}, view.online ? "online" : "offline"));
    card.classList.add(view.online ? "st-paused" : "st-offline");
    return card;
  }
  const clocks = liveClocks(view);
  card.classList.add(tableClass(view, clocks));
  const length = status.match_length ? status.match_length + "-point match \u00b7 " : "";
  const cube = status.cube.value + (status.cube.owner === null ? "" : status.cube.owner === 0 ? " \u2190" : " \u2192");
  const tag = status.crawford === "crawford" ? " Crawford" : status.crawford === "post" ? " post-Crawford" : "";
  card.append(
    el("h3", {}, el("span", {}, view.table), el("span", {}, view.online ? status.state : "offline")),
    el("div", {}, status.players[0] + " \u2013 " + status.players[1]),
    el("div", { className: "score" }, status.score[0] + " : " + status.score[1]),
    el("div", {}, length + "cube " + cube + tag + (view.open_incidents ? " \u00b7 " + view.open_incidents + " incident(s)" : "")),
  );
  if (status.clocks.enabled) {
    const row = el("div", { className: "clocks" });
    [0, 1].forEach((side) => {
      const running = status.clocks.running === side;
      const text = clockText(clocks.reserve[side]) + (running ? " (+" + clockText(clocks.allowance) + ")" : "");
      row.append(el("span", { className: running ? "running" : "" }, text));
    });
    card.append(row);
  }
  return card;
}

function renderTables() {
  const grid = $("tables");
  const ids = [...state.tables.keys()].sort();
  grid.replaceChildren(...ids.map((id) => tableCard(state.tables.get(id))));
}

function incidentClass(incident) {
  if (!incident.ruling) return "incident";
  return "incident " + (incident.ruling.acked_ms ? "delivered" : "ruled");
}

function incidentState(incident) {
  if (!incident.ruling) return "open";
  const ruling = incident.ruling.decision + " by " + incident.ruling.director;
  return incident.ruling.acked_ms ? ruling + " \u2013 received at the table" : ruling + " \u2013 sent";
}

function renderIncidents() {
  const list = [...state.incidents.values()].sort((a, b) => (a.ruling ? 1 : 0) - (b.ruling ? 1 : 0) || a.received_ms - b.received_ms);
  $("open-count").textContent = list.filter((i) => !i.ruling).length;
  $("incident-list").replaceChildren(...list.map((incident) => {
    const key = incident.table + "/" + incident.incident_id;
    const card = el("div", { className: incidentClass(incident) },
      el("strong", {}, "Table " + incident.table + ": " + incident.incident_kind),
      el("div", {}, incident.rule + " \u00b7 " + new Date(incident.at_ms).toLocaleTimeString()),
      el("div", { className: "incident-state" }, incidentState(incident)));
    card.dataset.incident = key;
    card.addEventListener("click", () => openIncident(key));
    return card;
  }));
  if (state.detail) showDetail();
}

function incidentUrl(incident, leaf) {
  return "/api/incidents/" + encodeURIComponent(incident.table) + "/" + encodeURIComponent(incident.incident_id) + "/" + leaf;
}

function showDiagram(incident, which, caption) {
  $("detail-diagram").src = incidentUrl(incident, "diagram.svg?play=" + which);
  $("detail-caption").textContent = caption;
  for (const button of $("legal-plays").children) button.classList.toggle("shown", button.dataset.play === String(which));
}

function openIncident(key) {
  state.detail = key;
  const incident = state.incidents.get(key);
  $("incident-list").hidden = true;
  $("incident-detail").hidden = false;
  $("detail-title").textContent = "Table " + incident.table + ": " + incident.incident_kind + " (" + incident.rule + ")";
  const dice = incident.dice ? incident.dice.join("-") : "no dice";
  const position = incident.position_id ? "Position " + incident.position_id + " \u00b7 " : "";
  const who = incident.player === null ? "" : "player " + (incident.player + 1) + " \u00b7 ";
  $("detail-facts").textContent = who + position + "dice " + dice +
    " \u00b7 play seen: " + (incident.play_seen || "none") + (incident.note ? " \u00b7 " + incident.note : "");
  $("snapshot-figure").hidden = !incident.has_snapshot;
  if (incident.has_snapshot) $("detail-snapshot").src = incidentUrl(incident, "snapshot.jpg");
  const seenCaption = "Play seen: " + (incident.play_seen || "none");
  const seen = el("button", { type: "button", className: "seen" }, "Play seen");
  seen.dataset.play = "seen";
  seen.addEventListener("click", () => showDiagram(incident, "seen", seenCaption));
  const legal = incident.legal_plays.map((play, index) => {
    const button = el("button", { type: "button" }, play);
    button.dataset.play = String(index);
    button.addEventListener("click", () => showDiagram(incident, index, "Legal play " + play));
    return button;
  });
  $("legal-plays").replaceChildren(seen, ...legal);
  $("legal-plays").hidden = !incident.position_id;
  $("diagram-figure").hidden = !incident.position_id;
  if (incident.position_id) showDiagram(incident, "seen", seenCaption);
  $("ruling-error").textContent = "";
  showDetail();
}

function showDetail() {
  const incident = state.incidents.get(state.detail);
  $("ruling-state").textContent = incidentState(incident);
}

function closeIncident() {
  state.detail = null;
  $("incident-detail").hidden = true;
  $("incident-list").hidden = false;
}

function renderResults() {
  $("results").tBodies[0].replaceChildren(...state.results.map((result) => el("tr", {},
    el("td", {}, result.table),
    el("td", {}, result.players.join(" \u2013 ")),
    el("td", {}, result.score.join(" : ") + (result.match_length ? " / " + result.match_length : "")),
    el("td", {}, el("a", { href: "/api/results/" + encodeURIComponent(result.id) + ".mat" }, ".mat")))));
}

function applyTables(views) {
  for (const view of views) state.tables.set(view.table, view);
  renderTables();
}

function showLink(text, up) {
  $("link-state").textContent = text;
  $("link-state").classList.toggle("up", up);
}

async function loadRoom() {
  const room = await api("/api/room");
  state.offset = room.server_ms - Date.now();
  $("event-name").textContent = room.event;
  state.incidents = new Map(room.incidents.map((i) => [i.table + "/" + i.incident_id, i]));
  state.results = room.results;
  applyTables(room.tables);
  renderIncidents();
  renderResults();
  return room;
}

function connectStream() {
  const source = new EventSource("/api/stream");
  let dropped = false;
  source.onopen = () => {
    // The stream starts with a "link" event (broker state). Events sent while this browser was away are not replayed: fetch the room again.
    if (dropped) loadRoom().catch(() => showLink("reconnecting", false));
    dropped = false;
  };
  source.onerror = () => { dropped = true; showLink("reconnecting", false); };
  source.addEventListener("link", (event) => {
    const connected = JSON.parse(event.data).connected;
    showLink(connected ? "live" : "broker unreachable", connected);
  });
  source.addEventListener("tables", (event) => applyTables(JSON.parse(event.data)));
  source.addEventListener("incident", (event) => {
    const incident = JSON.parse(event.data);
    state.incidents.set(incident.table + "/" + incident.incident_id, incident);
    renderIncidents();
  });
  source.addEventListener("result", (event) => { state.results.push(JSON.parse(event.data)); renderResults(); });
}

async function loadSettings() {
  const settings = await api("/api/settings");
  if (!settings) return;
  $("set-rule-set").value = settings.rule_set;
  $("set-length").value = settings.match_length;
  $("set-clock").checked = settings.clock.enabled;
  $("set-reserve").value = settings.clock.reserve_per_point_ms / 1000;
  $("set-allowance").value = settings.clock.allowance_ms / 1000;
  $("set-policy").value = settings.irregularities;
  $("settings-state").textContent = "revision " + settings.revision + " in force";
}

async function start() {
  const room = await loadRoom();
  $("login").hidden = true;
  $("app").hidden = false;
  connectStream();
  loadSettings();
  setInterval(renderTables, 1000);
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("login-error").textContent = "";
  try {
    await postJson("/api/login", { name: $("login-name").value, password: $("login-password").value });
    await start();
  } catch (error) { $("login-error").textContent = error.message; }
});

$("logout").addEventListener("click", async () => { await postJson("/api/logout", {}); location.reload(); });

for (const button of document.querySelectorAll("nav button[data-tab]")) {
  button.addEventListener("click", () => {
    for (const other of document.querySelectorAll("nav button[data-tab]")) other.classList.toggle("active", other === button);
    for (const tab of document.querySelectorAll(".tab")) tab.hidden = tab.id !== "tab-" + button.dataset.tab;
  });
}

$("detail-close").addEventListener("click", closeIncident);

$("ruling-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const incident = state.incidents.get(state.detail);
  $("ruling-error").textContent = "";
  try {
    const updated = await postJson(incidentUrl(incident, "ruling"), { decision: $("decision").value, note: $("ruling-note").value });
    state.incidents.set(state.detail, updated);
    renderIncidents();
  } catch (error) { $("ruling-error").textContent = error.message; }
});

$("settings-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const settings = await postJson("/api/settings", {
      rule_set: $("set-rule-set").value,
      match_length: Number($("set-length").value),
      clock: { enabled: $("set-clock").checked, reserve_per_point_ms: Number($("set-reserve").value) * 1000,
        allowance_ms: Number($("set-allowance").value) * 1000 },
      irregularities: $("set-policy").value,
    });
    $("settings-state").textContent = "revision " + settings.revision + " sent to all tables";
  } catch (error) { $("settings-state").textContent = error.message; }
});

start().catch(() => showLogin());
