// boardlab's web page: one WebSocket to the server; play by clicking, analyse records, watch runs; reconnects when the server restarts.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
let ws = null;
let hello = null;
let connectedOnce = false;
// What this page shows, kept so that a reconnect picks everything up again.
const page = {game: null, prefix: [], analysis: null, analysisRequest: null, agentRequest: null, run: null,
              link: parseLink(), refused: null};
// The server's secret: the address `boardlab serve` prints carries it (#token=...); kept for this
// origin only, so that a reload or a seat link opened later still connects.
const TOKEN = readToken();

// ---- connection ---------------------------------------------------------------------------------
function connect() {
  if (!TOKEN) {
    refuse("this page lacks the server's token: open the address `boardlab serve` printed (it ends in #token=...)");
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(TOKEN)}`);
  ws.onopen = () => setConnection("connected", true);
  ws.onclose = () => {
    if (page.refused) return refuse(page.refused);
    setConnection("reconnecting…", false);
    setTimeout(connect, 1000);
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
}

function readToken() {
  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  try {
    if (given) localStorage.setItem("boardlab-token", given);
    return given || localStorage.getItem("boardlab-token");
  } catch (error) {  // storage turned off: the address's token only
    return given;
  }
}

// A new address pasted into this tab (the server printed another token) changes only the
// fragment, which reloads nothing: start again with it.
window.addEventListener("hashchange", () => {
  const given = new URLSearchParams(location.hash.slice(1)).get("token");
  if (given && given !== TOKEN) location.reload();
});

// The server will not take this page (no token, a stale one, too many pages): say why, and stop trying.
function refuse(text) {
  setConnection("refused", false);
  showError(currentTab(), text);
}

function setConnection(text, ok) {
  const badge = $("connection");
  badge.textContent = text;
  badge.classList.toggle("down", !ok);
  document.body.dataset.connected = ok ? "yes" : "no";
}

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    showError(currentTab(), "not connected to the server: reconnecting…");
    return;
  }
  ws.send(JSON.stringify(message));
}

function receive(message) {
  const handlers = {hello: onHello, game: onGame, error: onError, analysis: onAnalysis, run: onRun,
                    runs: onRuns, replay: onReplay, refused: (m) => { page.refused = m.message; }};
  (handlers[message.type] || (() => {}))(message);
}

function onHello(message) {
  const first = hello === null;
  hello = message;
  if (first) fillGameChoices();
  onRuns(message);
  if (!connectedOnce) {
    connectedOnce = true;
    if (page.link) {
      // A seat link: this page plays that seat of a game another page started.
      const seat = page.link.seat === null ? [] : [page.link.seat];
      send({type: "join", id: page.link.id, seats: seat, keys: seat.length ? [page.link.key] : []});
    }
    return;
  }
  // Back after the server restarted: pick up the game, the analysis and the run again.
  if (page.game) {
    const g = page.game;
    g.version = -1;  // a restored game counts its versions from 0 again
    send({type: "join", id: g.id, seats: g.seats, keys: g.keys, restore: !g.hidden, game: g.game,
          players: g.players, record: g.hidden ? null : g.record});
  }
  if (page.analysisRequest) {
    send(page.analysisRequest);
    if (page.agentRequest) send(page.agentRequest);
    if (page.analysis) send({type: "step", position: page.analysis.position});
  }
  if (page.run) send({type: "watch_run", path: page.run});
}

function parseLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get("game")) return null;
  const seat = params.get("seat");
  return {id: params.get("game"), seat: seat === null || seat === "" ? null : Number(seat),
          key: params.get("key") || ""};
}

// ---- errors -------------------------------------------------------------------------------------
const ERROR_BOX = {play: "play-error", analyse: "analyse-error", runs: "runs-error", page: "play-error"};

function showError(where, text) {
  const box = $(ERROR_BOX[where] || "play-error");
  box.textContent = text;
  box.hidden = !text;
}

function onError(message) {
  showError(message.where, message.message);
}

function currentTab() {
  return document.querySelector(".tab.active")?.dataset.tab || "play";
}

// ---- tabs ---------------------------------------------------------------------------------------
function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  for (const panel of document.querySelectorAll(".panel")) panel.hidden = panel.id !== name;
}

// ---- game choices -------------------------------------------------------------------------------
function fillGameChoices() {
  for (const id of ["game", "an-game"]) {
    const select = $(id);
    select.innerHTML = "";
    for (const spec of hello.games) {
      const option = document.createElement("option");
      option.value = spec.name;
      option.textContent = spec.name;
      option.title = spec.description;
      select.append(option);
    }
  }
  $("kinds").textContent = "Players, one per seat: " + hello.kinds.map((k) => `${k.name} (${k.help})`).join("; ");
  fillParams();
}

// A list of player specs split at its top-level commas, as arena/player_spec.h reads it:
// `agent:'a,b.pt'(simulations=8),mcts(simulations=8,algorithm=puct)` is two.
function splitSpecs(text) {
  const specs = [];
  let depth = 0, quote = null, current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") { current += c + (text[++i] ?? ""); continue; }
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === "(") {
      depth++;
    } else if (c === ")") {
      depth--;
    } else if (c === "," && depth === 0) {
      specs.push(current.trim());
      current = "";
      continue;
    }
    current += c;
  }
  if (current.trim()) specs.push(current.trim());
  return specs.filter((s) => s);
}

// One player spec per seat: the list grows or shrinks with the game's seats, first seat human.
function fitPlayers(seats) {
  const players = $("players");
  const specs = splitSpecs(players.value);
  if (!Number.isInteger(seats) || seats < 1 || seats > 16 || specs.length === seats) return;
  players.value = Array.from({length: seats}, (_, i) => specs[i] || (i === 0 ? "human" : "random")).join(",");
}

function fillParams() {
  const spec = hello.games.find((g) => g.name === $("game").value);
  fitPlayers(spec.num_players);
  const box = $("params");
  box.innerHTML = "";
  for (const p of spec.parameters) {
    const label = document.createElement("label");
    label.title = p.doc;
    label.append(`${p.name} `);
    let input;
    if (p.type === "bool") {
      input = document.createElement("select");
      for (const v of ["true", "false"]) input.append(new Option(v, v, false, String(p.default) === v));
    } else {
      input = document.createElement("input");
      input.size = 8;
      input.placeholder = String(p.default);
    }
    input.dataset.param = p.name;
    input.id = `param-${p.name}`;
    if (p.name === "players") {
      input.addEventListener("input", () => fitPlayers(Number(input.value || p.default)));
    }
    label.append(input);
    box.append(label);
  }
}

function chosenParams() {
  const params = {};
  for (const input of document.querySelectorAll("#params [data-param]")) {
    if (input.value.trim() !== "") params[input.dataset.param] = input.value.trim();
  }
  return params;
}

// ---- play ---------------------------------------------------------------------------------------
function newGame(event) {
  event.preventDefault();
  showError("play", "");
  page.prefix = [];
  send({type: "new_game", game: $("game").value, params: chosenParams(), players: $("players").value,
        seed: $("seed").value.trim()});
}

function onGame(game) {
  if (page.game && page.game.id === game.id && game.version < page.game.version) return;
  if (!page.game || page.game.id !== game.id || page.game.version !== game.version) page.prefix = [];
  page.game = game;
  page.link = null;
  showError("play", "");
  document.body.dataset.gameVersion = String(game.version);
  drawBoard($("board"), game);
  drawTargets();
  $("status").textContent = game.status;
  const labels = game.labels;
  let turn = "";
  if (!game.over) {
    if (game.simultaneous && game.chosen.length) {
      turn = `${game.chosen.map((s) => labels[s]).join(", ")} ${game.chosen.length > 1 ? "have" : "has"} chosen; ` +
             `waiting for ${game.to_act.map((s) => labels[s]).join(", ")}`;
    } else if (game.acting !== null) {
      const soFar = game.turn.length ? ` — this turn so far: ${game.turn.join("-")}` : "";
      turn = `${labels[game.acting]} to choose${soFar}`;
    } else if (game.to_act.length) {
      turn = `${game.to_act.map((s) => labels[s]).join(", ")} thinking…` +
             (game.turn.length ? ` — this turn so far: ${game.turn.join("-")}` : "");
    }
  }
  $("turn").textContent = turn;
  $("result").textContent = game.over ? game.result : "";
  $("record").textContent = game.record || "(no moves yet)";
  drawMoveButtons();
  // Only the page that started the game holds the other human seats' keys, to hand out as links.
  const others = game.links || [];
  const links = $("seat-links");
  links.innerHTML = "";
  if (others.length) {
    links.append("Other human seats play from their own page: ");
    for (const {seat, key} of others) {
      const a = document.createElement("a");
      const token = encodeURIComponent(TOKEN);
      a.href = `#token=${token}&game=${game.id}&seat=${seat}&key=${encodeURIComponent(key)}`;
      a.target = "_blank";
      a.textContent = labels[seat];
      links.append(a, " ");
    }
  }
  $("undo").disabled = game.seats.length === 0;
  $("resign").disabled = game.over || game.seats.length === 0;
}

function drawBoard(container, shown) {
  container.innerHTML = shown.svg;
  const svg = container.querySelector("svg");
  if (svg) {
    // Scales with the page (a phone's width) while keeping the drawing's proportions.
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("preserveAspectRatio", "xMidYMin meet");
  }
  return svg;
}

// The spacing of a drawing's points: the click targets are circles half as wide.
function pointRadius(points) {
  let best = Infinity;
  const sample = points.slice(0, 60);
  for (let i = 0; i < sample.length; i++) {
    for (let j = i + 1; j < sample.length; j++) {
      const d = Math.hypot(sample[i].x - sample[j].x, sample[i].y - sample[j].y);
      if (d > 0 && d < best) best = d;
    }
  }
  return Number.isFinite(best) ? Math.min(best / 2, 20) : 12;
}

function startsWith(list, prefix) {
  return prefix.every((name, i) => list[i] === name);
}

function drawTargets() {
  const game = page.game;
  const svg = $("board").querySelector("svg");
  if (!svg || !game.points.length) return;
  const old = svg.querySelector("#targets");
  if (old) old.remove();
  const layer = document.createElementNS(SVG_NS, "g");
  layer.id = "targets";
  const radius = pointRadius(game.points);
  const next = new Set();
  for (const move of game.moves) {
    if (move.points.length > page.prefix.length && startsWith(move.points, page.prefix)) {
      next.add(move.points[page.prefix.length]);
    }
  }
  for (const point of game.points) {
    const circle = document.createElementNS(SVG_NS, "circle");
    circle.setAttribute("cx", point.x);
    circle.setAttribute("cy", point.y);
    circle.setAttribute("r", radius * 0.92);
    circle.classList.add("point");
    if (next.has(point.name)) circle.classList.add("legal");
    if (page.prefix.includes(point.name)) circle.classList.add("chosen");
    circle.dataset.name = point.name;
    circle.addEventListener("click", () => clickPoint(point.name));
    const title = document.createElementNS(SVG_NS, "title");
    title.textContent = point.name;
    circle.append(title);
    layer.append(circle);
  }
  svg.append(layer);
}

function clickPoint(name) {
  const game = page.game;
  if (!game) return;
  showError("play", "");
  $("chooser").innerHTML = "";
  if (game.acting === null) {
    send({type: "refused_click", seat: null, text: name});
    return;
  }
  const prefix = page.prefix;
  const candidates = game.moves.filter((m) => m.points.length > prefix.length && startsWith(m.points, prefix) &&
                                              m.points[prefix.length] === name);
  if (!candidates.length) {
    if (prefix.length) {
      // Not a continuation: a move that starts here instead, or else the reason why the two clicks are no move.
      const starts = game.moves.some((m) => m.points[0] === name);
      const tried = [...prefix, name].join("-");
      page.prefix = [];
      if (starts) return clickPoint(name);
      drawTargets();
      send({type: "refused_click", seat: game.acting, text: tried});
      return;
    }
    send({type: "refused_click", seat: game.acting, text: name});
    return;
  }
  page.prefix = [...prefix, name];
  const complete = candidates.filter((m) => m.points.length === page.prefix.length);
  const longer = candidates.filter((m) => m.points.length > page.prefix.length);
  if (complete.length === 1 && !longer.length) {
    page.prefix = [];
    playMove(complete[0]);
    return;
  }
  drawTargets();
  if (complete.length) showChooser(complete);
}

function showChooser(moves) {
  const box = $("chooser");
  box.innerHTML = "";
  box.append("Which one? ");
  for (const move of moves) box.append(moveButton(move));
}

function moveButton(move) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = move.text;
  button.dataset.action = move.action;
  button.classList.add("move");
  button.addEventListener("click", () => playMove(move));
  return button;
}

function drawMoveButtons() {
  const game = page.game;
  const box = $("moves");
  box.innerHTML = "";
  $("chooser").innerHTML = "";
  if (game.acting === null) return;
  // Moves with no place on the drawing (a pass, a declined shot, every move of a game drawn as text).
  const listed = game.moves.filter((m) => m.points.length === 0);
  if (listed.length) {
    box.append(game.points.length ? "Or: " : "Moves: ");
    for (const move of listed) box.append(moveButton(move));
  }
}

function playMove(move) {
  $("chooser").innerHTML = "";
  send({type: "play", seat: page.game.acting, action: move.action});
}

function download() {
  const game = page.game;
  if (!game) return;
  const text = `${game.game}\n${game.record}\n`;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  link.download = `${game.name}-${game.id}.txt`;
  link.id = "download-link";
  link.dataset.text = text;
  document.body.append(link);
  link.click();
  setTimeout(() => link.remove(), 2000);
}

// ---- analysis -----------------------------------------------------------------------------------
function openRecord(text, extra = {}) {
  showError("analyse", "");
  page.analysisRequest = {type: "analyse", game: $("an-game").value, text, ...extra};
  send(page.analysisRequest);
}

async function openFile() {
  const file = $("an-file").files[0];
  if (!file) return;
  const text = await file.text();
  $("an-text").value = text;
  openRecord(text);
}

function askAgent() {
  showError("analyse", "");
  const checkpoint = $("an-checkpoint").value.trim();
  page.agentRequest = {type: "agent", checkpoint, simulations: $("an-sims").value.trim()};
  send(page.agentRequest);
}

function step(position) {
  if (!page.analysis) return;
  send({type: "step", position});
}

function onAnalysis(analysis) {
  page.analysis = analysis;
  showError("analyse", analysis.agent_error || "");
  document.body.dataset.analysisPosition = String(analysis.position);
  drawBoard($("an-board"), analysis);
  $("an-pos").textContent = `${analysis.position} / ${analysis.moves.length}`;
  $("an-status").textContent = analysis.status;
  const list = $("an-moves");
  list.innerHTML = "";
  analysis.moves.forEach((move, i) => {
    const item = document.createElement("li");
    item.textContent = move.text;
    item.classList.toggle("current", i === analysis.position - 1);
    item.addEventListener("click", () => step(i + 1));
    list.append(item);
  });
  list.querySelector(".current")?.scrollIntoView({block: "nearest"});
  drawAgent(analysis);
}

function drawAgent(analysis) {
  const out = $("an-agent-out");
  out.innerHTML = "";
  const agent = analysis.agent;
  if (!agent) return;
  if (!agent.seats.length) {
    out.textContent = "Nothing to analyse here (the game is over, or chance is to act).";
    return;
  }
  const heat = $("an-heat").value;
  const svg = $("an-board").querySelector("svg");
  const points = new Map(analysis.points.map((p) => [p.name, p]));
  const radius = pointRadius(analysis.points);
  const layer = document.createElementNS(SVG_NS, "g");
  layer.id = "heat";
  for (const seat of agent.seats) {
    const title = document.createElement("p");
    title.className = "label";
    const values = Object.entries(seat.value).map(([who, v]) => `${who} ${v >= 0 ? "+" : ""}${v.toFixed(2)}`);
    title.textContent = `${seat.label} to choose: network value ${values.join(", ")}; ` +
                        `search value ${seat.search_value.toFixed(2)} after ${seat.simulations} simulations`;
    out.append(title);
    if (seat.line.length) {
      const line = document.createElement("p");
      line.className = "line";
      line.id = `best-line-${seat.seat}`;
      line.textContent = `Best line: ${seat.line.join(", ")}`;
      out.append(line);
    }
    const table = document.createElement("table");
    table.className = "policy";
    table.innerHTML = "<tr><th>move</th><th>prior</th><th>visits</th><th>policy</th></tr>";
    for (const a of seat.actions.slice(0, 12)) {
      const row = document.createElement("tr");
      row.innerHTML = `<td>${a.text}</td><td>${(100 * a.prior).toFixed(1)}%</td><td>${a.visits}</td>` +
                      `<td>${(100 * a.policy).toFixed(1)}%</td>`;
      table.append(row);
    }
    out.append(table);
    // The heat map: each action's share drawn at the point it ends on (a move's destination).
    const totals = new Map();
    const sum = seat.actions.reduce((s, a) => s + (heat === "prior" ? a.prior : a.visits), 0) || 1;
    for (const a of seat.actions) {
      if (!a.point) continue;
      totals.set(a.point, (totals.get(a.point) || 0) + (heat === "prior" ? a.prior : a.visits) / sum);
    }
    const best = Math.max(...totals.values(), 1e-9);
    for (const [name, share] of totals) {
      const p = points.get(name);
      if (!p || share <= 0) continue;
      const circle = document.createElementNS(SVG_NS, "circle");
      circle.setAttribute("cx", p.x);
      circle.setAttribute("cy", p.y);
      circle.setAttribute("r", radius * (0.35 + 0.6 * Math.sqrt(share / best)));
      circle.setAttribute("class", "heat");
      circle.setAttribute("fill-opacity", (0.25 + 0.6 * share / best).toFixed(2));
      circle.dataset.name = name;
      circle.dataset.share = share.toFixed(4);
      const t = document.createElementNS(SVG_NS, "title");
      t.textContent = `${name}: ${(100 * share).toFixed(1)}%`;
      circle.append(t);
      layer.append(circle);
    }
  }
  if (svg) svg.append(layer);
}

// ---- runs ---------------------------------------------------------------------------------------
function onRuns(message) {
  $("runs-root").textContent = message.runs_root;
  const box = $("runs-list");
  box.innerHTML = "";
  if (!message.runs.length) box.textContent = "No run folders here yet (boardlab train --out under this folder).";
  for (const run of message.runs) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "run";
    button.dataset.path = run.path;
    button.textContent = `${run.path} (${run.game})`;
    button.addEventListener("click", () => watchRun(run.path));
    box.append(button);
  }
}

function watchRun(path) {
  showError("runs", "");
  page.run = path;
  send({type: "watch_run", path});
}

function onRun(run) {
  $("run").hidden = false;
  $("run-title").textContent = `${run.path} — ${run.game}`;
  document.body.dataset.runPath = run.path;
  const m = run.metrics;
  const x = m.step || [];
  chart($("chart-loss"), "losses", x, [
    {name: "policy", ys: m.policy_loss, color: "#2471a3"},
    {name: "value", ys: m.value_loss, color: "#c0392b"},
    {name: "ownership", ys: m.ownership_loss, color: "#1e8449"},
  ]);
  // The ladder rating (rungs held at their stored ratings) keeps rising where the evaluation's
  // own fit, anchored at a random player the network always beats, goes flat.
  const ladder = (m.ladder_elo || []).some((v) => v !== null);
  chart($("chart-elo"), ladder ? "Elo on the game's ladder (random = 0), 95% interval" : "Elo (random = 0), 95% interval", x, [
    ...(ladder ? [{name: "ladder Elo", ys: m.ladder_elo, color: "#1a5276", low: m.ladder_low, high: m.ladder_high}] : []),
    {name: ladder ? "Elo, this evaluation's players" : "Elo", ys: m.elo, color: "#7d3c98", low: ladder ? undefined : m.elo_low,
     high: ladder ? undefined : m.elo_high},
  ]);
  chart($("chart-speed"), "self-play throughput", x, [
    {name: "positions/s", ys: m.positions_per_s, color: "#b9770e"},
    {name: "games/s ×100", ys: (m.games_per_s || []).map((v) => (v === null ? null : 100 * v)), color: "#117a65"},
  ]);
  const games = $("run-games");
  games.innerHTML = "";
  for (const g of run.games) {
    const item = document.createElement("li");
    const result = g.truncated ? "truncated" : g.returns.map((r) => (r > 0 ? "+" : "") + r).join(" ");
    item.textContent = `game ${g.index} (${result}) `;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "analyse";
    button.className = "analyse-game";
    button.addEventListener("click", () => {
      showTab("analyse");
      $("an-text").value = g.record;
      openRecord(g.record, {run: run.path});
    });
    item.append(button);
    games.append(item);
  }
  const checkpoints = $("run-checkpoints");
  checkpoints.innerHTML = "";
  hello.checkpoints = [...new Set([...(hello.checkpoints || []), ...run.checkpoints])];
  const datalist = $("an-checkpoints");
  datalist.innerHTML = "";
  for (const c of hello.checkpoints) datalist.append(new Option(c, c));
  for (const c of run.checkpoints.slice(0, 6)) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = c;
    button.className = "use-checkpoint";
    button.title = "analyse with this checkpoint";
    button.addEventListener("click", () => {
      $("an-checkpoint").value = c;
      showTab("analyse");
      askAgent();
    });
    item.append(button);
    checkpoints.append(item);
  }
  const steps = Object.keys(run.evaluations).map(Number).sort((a, b) => b - a);
  const select = $("run-eval-step");
  const chosen = select.value;
  select.innerHTML = "";
  for (const s of steps) select.append(new Option(`step ${s}`, String(s)));
  if (steps.map(String).includes(chosen)) select.value = chosen;
  page.evaluations = run.evaluations;
  showEvaluation();
  $("run-log").textContent = run.log.join("\n");
}

function showEvaluation() {
  const step = $("run-eval-step").value;
  $("run-eval").textContent = step ? page.evaluations[step] : "No evaluation yet.";
}

function onReplay(replay) {
  if (replay.path !== page.run) return;
  drawBoard($("run-replay"), replay);
  $("replay-caption").textContent = `(game ${replay.index}, move ${replay.position} of ${replay.length})`;
}

// A line chart in SVG: one line per series, a shaded band where a series has low/high.
function chart(container, title, xs, series) {
  const width = 360, height = 200, left = 46, right = 10, top = 24, bottom = 26;
  const points = [];
  for (const s of series) {
    (s.ys || []).forEach((y, i) => {
      if (y !== null && y !== undefined && xs[i] !== null) points.push([xs[i], y]);
      if (s.low && s.low[i] !== null && s.low[i] !== undefined) points.push([xs[i], s.low[i]], [xs[i], s.high[i]]);
    });
  }
  let svg = `<svg xmlns="${SVG_NS}" viewBox="0 0 ${width} ${height}" class="chart-svg">` +
            `<text x="${left}" y="15" font-size="13">${title}</text>`;
  if (!points.length) {
    container.innerHTML = svg +
      `<text x="${left}" y="${height / 2}" font-size="12" fill="#777">no data yet</text></svg>`;
    return;
  }
  const [x0, x1] = [Math.min(...points.map((p) => p[0])), Math.max(...points.map((p) => p[0]))];
  let [y0, y1] = [Math.min(...points.map((p) => p[1])), Math.max(...points.map((p) => p[1]))];
  if (y0 === y1) { y0 -= 1; y1 += 1; }
  const sx = (x) => left + (x1 === x0 ? 0.5 : (x - x0) / (x1 - x0)) * (width - left - right);
  const sy = (y) => top + (1 - (y - y0) / (y1 - y0)) * (height - top - bottom);
  svg += `<rect x="${left}" y="${top}" width="${width - left - right}" height="${height - top - bottom}" ` +
         `fill="none" stroke="#bbb"/>`;
  svg += `<text x="${left - 4}" y="${top + 8}" font-size="10" text-anchor="end">${fmt(y1)}</text>`;
  svg += `<text x="${left - 4}" y="${height - bottom}" font-size="10" text-anchor="end">${fmt(y0)}</text>`;
  svg += `<text x="${left}" y="${height - 8}" font-size="10">step ${fmt(x0)}</text>`;
  svg += `<text x="${width - right}" y="${height - 8}" font-size="10" text-anchor="end">${fmt(x1)}</text>`;
  let legend = left + 4;
  for (const s of series) {
    const ys = s.ys || [];
    const idx = ys.map((y, i) => i).filter((i) => ys[i] !== null && ys[i] !== undefined);
    if (!idx.length) continue;
    if (s.low) {
      const band = idx.filter((i) => s.low[i] !== null && s.high[i] !== null);
      if (band.length) {
        const upper = band.map((i) => `${sx(xs[i])},${sy(s.high[i])}`);
        const lower = band.slice().reverse().map((i) => `${sx(xs[i])},${sy(s.low[i])}`);
        svg += `<polygon points="${[...upper, ...lower].join(" ")}" fill="${s.color}" fill-opacity="0.2"/>`;
      }
    }
    svg += `<polyline points="${idx.map((i) => `${sx(xs[i])},${sy(ys[i])}`).join(" ")}" fill="none" ` +
           `stroke="${s.color}" stroke-width="2"/>`;
    for (const i of idx.length < 40 ? idx : []) {
      svg += `<circle cx="${sx(xs[i])}" cy="${sy(ys[i])}" r="2.5" fill="${s.color}"/>`;
    }
    svg += `<text x="${legend}" y="${top + 14}" font-size="11" fill="${s.color}">${s.name}</text>`;
    legend += 8 * s.name.length + 14;
  }
  container.innerHTML = svg + "</svg>";
}

function fmt(v) {
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toPrecision(2);
}

// ---- wiring -------------------------------------------------------------------------------------
function wire() {
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("game").addEventListener("change", fillParams);
  $("new-game-form").addEventListener("submit", newGame);
  $("undo").addEventListener("click", () => { page.prefix = []; send({type: "undo"}); });
  $("resign").addEventListener("click", () => send({type: "resign"}));
  $("download").addEventListener("click", download);
  $("an-open").addEventListener("click", () => openRecord($("an-text").value));
  $("an-file").addEventListener("change", openFile);
  $("an-agent").addEventListener("click", askAgent);
  $("an-first").addEventListener("click", () => step(0));
  $("an-prev").addEventListener("click", () => step((page.analysis?.position || 0) - 1));
  $("an-next").addEventListener("click", () => step((page.analysis?.position || 0) + 1));
  $("an-last").addEventListener("click", () => step(page.analysis?.moves.length || 0));
  $("an-heat").addEventListener("change", () => page.analysis && onAnalysis(page.analysis));
  $("runs-refresh").addEventListener("click", () => send({type: "runs"}));
  $("run-eval-step").addEventListener("change", showEvaluation);
  document.addEventListener("keydown", (event) => {
    if (currentTab() !== "analyse" || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowLeft") step((page.analysis?.position || 0) - 1);
    if (event.key === "ArrowRight") step((page.analysis?.position || 0) + 1);
  });
  showTab("play");
  connect();
}

wire();
