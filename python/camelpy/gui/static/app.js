// camelpy gui: the page. One WebSocket to the server (/ws), which holds this tab's game, analysis board
// and watched folder; the page sends ops and draws what comes back.
"use strict";

const $ = (id) => document.getElementById(id);
const RECONNECT_MS = 1000;
const MESSAGE_MS = 8000;
const PLOT_ELO = 400; // the Elo plot's widest range
const PV_SHOWN = 14; // moves of an analysis line shown (the rest is noise at the end of a long PV)

// ---- connection ---------------------------------------------------------------------------------

// The run's secret, from the address camelpy gui printed (?token=…): the server takes no socket without it.
const token = new URLSearchParams(location.search).get("token") || "";
const BUSY_CLOSE = 1013; // a socket refused because the server is at a cap: wait longer before trying again
const BUSY_RECONNECT_MS = 10000;

function newSessionId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return Math.random().toString(36).slice(2) + Date.now().toString(36);
}

const sessionId = sessionStorage.getItem("camelpy-session") || newSessionId();
sessionStorage.setItem("camelpy-session", sessionId);

let socket = null;
let pending = [];

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = `session=${encodeURIComponent(sessionId)}&token=${encodeURIComponent(token)}`;
  socket = new WebSocket(`${scheme}://${location.host}/ws?${query}`);
  socket.onopen = () => {
    for (const text of pending) socket.send(text);
    pending = [];
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "connection lost";
    setTimeout(connect, event.code === BUSY_CLOSE ? BUSY_RECONNECT_MS : RECONNECT_MS);
  };
}

function send(op, fields = {}) {
  const text = JSON.stringify({ op, ...fields });
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
  else pending.push(text);
}

let messageTimer = null;
function showMessage(text, kind = "error") {
  const box = $("message");
  box.textContent = text;
  box.className = "message " + kind;
  clearTimeout(messageTimer);
  messageTimer = setTimeout(() => box.classList.add("hidden"), MESSAGE_MS);
}

// One handler per message kind the server sends (camelpy/gui/messages.py defines each; its test reads
// the fields each handler takes from `m` here). The Review view's (showReview…) are in review.js.
const handlers = {
  hello: (m) => {
    setVariants(m.variants);
    setWatchable(m.watchable);
    // Connected once the server has greeted the page: its choices (levels, games) are in the form.
    $("connection").textContent = "connected";
    $("connection").className = "connection ok";
  },
  game: (m) => showGame(m.game, m.thinking),
  engine_info: (m) => showEngineInfo(m.info),
  line: (m) => showLine(m.line, m.trace),
  analysis: (m) => showAnalysis(m.running, m.lines),
  watch_snapshot: (m) => showWatch(m.watch),
  watch_events: (m) => {
    m.events.forEach(watchEvent);
    setSkipped(m.skipped);
  },
  replay: (m) => showReplay(m.game),
  review: (m) => showReview(m.review),
  review_progress: (m) => showReviewProgress(m.running, m.done, m.total),
  notice: (m) => showMessage(m.message, "notice"),
  error: (m) => showMessage(m.message, "error"),
};

function receive(message) {
  const handler = handlers[message.type];
  if (handler) handler(message);
}

// ---- views ----------------------------------------------------------------------------------------

function showView(name) {
  for (const view of ["play", "analyse", "watch", "review"]) {
    $("view-" + view).classList.toggle("hidden", view !== name);
    $("tab-" + view).classList.toggle("active", view === name);
  }
  if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
}

for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showView(tab.dataset.view));

function scoreClass(score) {
  if (!score) return "";
  if (score.mate !== null) return score.mate > 0 ? "good" : "bad";
  return score.cp > 30 ? "good" : score.cp < -30 ? "bad" : "";
}

// Numbered SAN moves; onClick(ply) makes each clickable, `current` marks the ply on show.
function renderMoves(el, sans, { current = null, onClick = null, notes = null, startTurnBlack = false, startNumber = 1 } = {}) {
  el.innerHTML = "";
  let number = startNumber;
  let black = startTurnBlack;
  sans.forEach((san, i) => {
    if (!black || i === 0) {
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = number + (black ? "…" : ".");
      el.appendChild(num);
    }
    const move = document.createElement("span");
    move.className = "move" + (current === i + 1 ? " current" : "");
    move.dataset.ply = i + 1;
    move.textContent = san;
    if (notes && notes[i]) {
      const note = document.createElement("small");
      note.textContent = " " + notes[i];
      move.appendChild(note);
    }
    if (onClick) move.addEventListener("click", () => onClick(i + 1));
    el.appendChild(move);
    el.appendChild(document.createTextNode(" "));
    if (black) number++;
    black = !black;
  });
  const cur = el.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function fenTurnInfo(fen) {
  const parts = fen.split(" ");
  return { black: (parts[1] || "").toLowerCase() === "b", number: Number(parts[5] || 1) };
}

// ---- Play -----------------------------------------------------------------------------------------

const playBoard = new Board($("play-board"), { onMove: (uci) => send("move", { uci }) });
let game = null;
let clockState = null;
let orientedFor = null;

// The strength menu: the chosen game's named levels (chess's are UCI_Elo settings, the small games'
// node counts), then the limits any game takes. A level of the same name stays chosen across games.
function setLevels(levels) {
  const select = $("ng-strength");
  const chosen = select.value || "level:club";
  select.replaceChildren();
  for (const [name, [kind, value]] of Object.entries(levels)) {
    const what = kind === "ms" ? value / 1000 + " s" : kind === "elo" ? "Elo " + value : value + " " + kind;
    select.add(new Option(`${name} (${what})`, "level:" + name));
  }
  select.add(new Option("time per move (ms)", "ms"));
  select.add(new Option("depth", "depth"));
  select.add(new Option("nodes", "nodes"));
  select.add(new Option("its clock", "clock"));
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "level:club";
  if (select.value !== chosen) select.dispatchEvent(new Event("change"));
}

$("ng-strength").addEventListener("change", () => {
  const kind = $("ng-strength").value;
  const custom = !kind.startsWith("level:") && kind !== "clock";
  $("ng-value").classList.toggle("hidden", !custom);
  $("ng-value").value = { ms: 1000, depth: 8, nodes: 10000 }[kind] || "";
  if (kind === "clock") $("ng-clock").checked = true;
});

// The games as the server offers them (hello's variants: title, analysis lines, Chess960, position text).
let variants = {};
const about = (name) => variants[name] || { multipv: 1, chess960: true, fen_hint: "FEN", sides: ["White", "Black"], levels: {} };

function setVariants(offered) {
  variants = offered;
  $("ng-variant").dispatchEvent(new Event("change"));
}

$("ng-variant").addEventListener("change", () => {
  const game = about($("ng-variant").value);
  const chess960 = $("ng-start").querySelector('option[value="960"]');
  chess960.disabled = !game.chess960;
  if (!game.chess960 && $("ng-start").value === "960") $("ng-start").value = "standard";
  $("ng-fen").placeholder = game.fen_hint;
  // "You play": the game's own side names (Tangerine and Lavender in Leiserchess).
  $("ng-human").querySelector('option[value="white"]').textContent = game.sides[0];
  $("ng-human").querySelector('option[value="black"]').textContent = game.sides[1];
  setLevels(game.levels);
  $("ng-start").dispatchEvent(new Event("change"));
});

$("ng-start").addEventListener("change", () => {
  $("ng-fen").classList.toggle("hidden", $("ng-start").value !== "fen");
  $("ng-960").classList.toggle("hidden", $("ng-start").value !== "960");
});

$("new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  const kind = $("ng-strength").value;
  const strength = kind.startsWith("level:")
    ? { kind: "level", value: kind.slice(6) }
    : kind === "clock" ? { kind: "clock" } : { kind, value: Number($("ng-value").value) };
  const op = { variant: $("ng-variant").value, human: $("ng-human").value, strength, clock: null, fen: null, chess960: null };
  if ($("ng-clock").checked) op.clock = { base: Number($("ng-base").value) * 60, inc: Number($("ng-inc").value) };
  if ($("ng-start").value === "fen") op.fen = $("ng-fen").value;
  if ($("ng-start").value === "960") op.chess960 = $("ng-960").value === "" ? -1 : Number($("ng-960").value);
  orientedFor = null;
  $("play-info").textContent = "";
  send("new_game", op);
});

function showGame(view, thinking) {
  game = view;
  if (!view) {
    $("play-status").textContent = "Start a game: choose your side and camelpy's strength below";
    playBoard.set({ fen: START_FEN, legal: {}, lastmove: null, check: null });
    return;
  }
  playBoard.setSize(view.files, view.ranks);
  playBoard.setGame(view.variant);
  const key = `${view.variant} ${view.start_fen} ${view.human}`;
  if (key !== orientedFor) {
    // A new game, or the page reloaded: the person's side at the bottom (Flip changes it afterwards).
    orientedFor = key;
    playBoard.setOrientation(view.human === "black" ? "black" : "white");
  }
  const humanToMove = view.human === "both" || view.board.turn === view.human;
  const canMove = !view.result && humanToMove && !thinking;
  playBoard.set({ fen: view.board.fen, legal: canMove ? view.board.legal : {}, lastmove: view.board.lastmove, check: view.board.check, laser: view.board.laser || null });
  const start = fenTurnInfo(view.start_fen);
  renderMoves($("play-moves"), view.sans, { current: view.sans.length, notes: view.scores, startTurnBlack: start.black, startNumber: start.number });
  let status;
  if (view.result) status = `${view.result} — ${view.reason}`;
  else if (thinking) status = "camelpy is thinking…";
  else status = `${about(view.variant).sides[view.board.turn === "white" ? 0 : 1]} to move` + (humanToMove ? " — your move" : "");
  $("play-status").textContent = status;
  $("play-status").className = "status" + (view.result ? " over" : "");
  $("play-pgn").value = view.pgn;
  $("pgn-review").classList.toggle("hidden", view.variant !== "chess"); // the review is chess's only
  const [white, black] = view.players;
  const topIsBlack = playBoard.orientation === "white";
  $("play-top-name").textContent = topIsBlack ? black : white;
  $("play-bottom-name").textContent = topIsBlack ? white : black;
  clockState = view.clock ? { ...view.clock, at: performance.now() } : null;
  drawClocks();
  $("play-undo").disabled = view.moves.length === 0;
  $("play-resign").disabled = $("play-draw").disabled = !!view.result;
}

function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const m = Math.floor(s / 60);
  const rest = Math.floor(s % 60);
  return `${m}:${String(rest).padStart(2, "0")}`;
}

function drawClocks() {
  const top = $("clock-top"), bottom = $("clock-bottom");
  if (!clockState) {
    top.textContent = bottom.textContent = "";
    top.className = bottom.className = "clock";
    return;
  }
  const elapsed = (performance.now() - clockState.at) / 1000;
  const left = { white: clockState.white, black: clockState.black };
  if (clockState.running) left[clockState.running] -= elapsed;
  const topColor = playBoard.orientation === "white" ? "black" : "white";
  const bottomColor = topColor === "white" ? "black" : "white";
  top.textContent = formatClock(left[topColor]);
  bottom.textContent = formatClock(left[bottomColor]);
  top.className = "clock" + (clockState.running === topColor ? " running" : "");
  bottom.className = "clock" + (clockState.running === bottomColor ? " running" : "");
}
setInterval(drawClocks, 100);

function showEngineInfo(info) {
  const pv = info.sans.slice(0, 8).join(" ");
  $("play-info").textContent = `depth ${info.depth}  ${info.score.text}  ${(info.nodes || 0).toLocaleString()} nodes  ${pv}`;
}

$("play-flip").addEventListener("click", () => {
  playBoard.flip();
  if (game) showGame(game, $("play-status").textContent.startsWith("camelpy is thinking"));
});
$("play-undo").addEventListener("click", () => send("undo"));
$("play-resign").addEventListener("click", () => send("resign"));
$("play-draw").addEventListener("click", () => send("draw"));
$("pgn-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("play-pgn").value);
    showMessage("PGN copied", "notice");
  } catch (err) {
    $("play-pgn").select();
    showMessage("Select the PGN and copy it with Ctrl-C (the browser refused the clipboard)", "notice");
  }
});
$("pgn-download").addEventListener("click", () => {
  const blob = new Blob([$("play-pgn").value], { type: "application/x-chess-pgn" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "camelpy-game.pgn";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

// ---- Analyse --------------------------------------------------------------------------------------

const analyseBoard = new Board($("analyse-board"), { onMove: (uci) => send("play", { moves: [uci] }) });
let line = null;
let analysing = false;

function showLine(view, trace) {
  line = view;
  const board = view.board;
  analyseBoard.setSize(view.files, view.ranks);
  analyseBoard.setGame(view.variant);
  $("an-variant").value = view.variant;
  $("an-multipv").disabled = about(view.variant).multipv < 2; // a search that gives one line
  analyseBoard.set({ fen: board.fen, legal: board.legal, lastmove: board.lastmove, check: board.check, laser: board.laser || null });
  analyseBoard.setArrows([]);
  const start = fenTurnInfo(view.fen);
  renderMoves($("an-moves"), view.sans, { current: view.ply, onClick: (ply) => send("goto", { ply }), startTurnBlack: start.black, startNumber: start.number });
  $("an-trace").textContent = trace || (board.outcome || "");
  if (board.outcome) setEval(null, board.outcome);
}

function evalFraction(score) {
  if (score.mate !== null) return score.mate > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score.cp / 250)); // a pawn ahead is about 60 %
}

function setEval(score, text) {
  $("eval-fill").style.height = (score ? evalFraction(score) * 100 : 50) + "%";
  $("eval-text").textContent = score ? score.text : text || "";
}

function showAnalysis(running, lines) {
  analysing = running;
  $("an-toggle").textContent = analysing ? "Stop" : "Analyse";
  const box = $("an-lines");
  box.innerHTML = "";
  for (const info of lines) {
    const row = document.createElement("div");
    row.className = "line";
    const score = document.createElement("span");
    score.className = "score " + scoreClass(info.score);
    score.textContent = info.score.text;
    row.appendChild(score);
    const depth = document.createElement("span");
    depth.className = "depth";
    depth.textContent = `d${info.depth}`;
    row.appendChild(depth);
    info.sans.slice(0, PV_SHOWN).forEach((san, i) => {
      const move = document.createElement("span");
      move.className = "pv-move";
      move.textContent = san;
      move.title = "play the line up to here";
      move.addEventListener("click", () => send("play", { moves: info.pv.slice(0, i + 1) }));
      row.appendChild(move);
    });
    box.appendChild(row);
  }
  const best = lines[0];
  if (best) {
    setEval(best.score);
    analyseBoard.setArrows([[best.pv[0].slice(0, 2), best.pv[0].slice(2, 4)]]);
  } else if (!line || !line.board.outcome) {
    setEval(null, "");
    analyseBoard.setArrows([]);
  }
}

$("an-toggle").addEventListener("click", () => {
  if (analysing) send("stop");
  else send("analyse", { multipv: Number($("an-multipv").value) });
});
$("an-multipv").addEventListener("change", () => {
  if (analysing) send("analyse", { multipv: Number($("an-multipv").value) });
});
$("an-load").addEventListener("click", () => send("load", { text: $("an-text").value, variant: $("an-variant").value }));
$("an-first").addEventListener("click", () => line && send("goto", { ply: 0 }));
$("an-prev").addEventListener("click", () => line && line.ply > 0 && send("goto", { ply: line.ply - 1 }));
$("an-next").addEventListener("click", () => line && line.ply < line.moves.length && send("goto", { ply: line.ply + 1 }));
$("an-last").addEventListener("click", () => line && send("goto", { ply: line.moves.length }));
$("an-flip").addEventListener("click", () => analyseBoard.flip());
document.addEventListener("keydown", (event) => {
  if ($("view-analyse").classList.contains("hidden") || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
  if (event.key === "ArrowLeft") $("an-prev").click();
  if (event.key === "ArrowRight") $("an-next").click();
});

// ---- Watch ----------------------------------------------------------------------------------------

const watchCards = new Map(); // game id -> {card, board, moves}
let watchHistory = [];
let watchRun = null;
let replayGame = null;
let replayPly = 0;
const replayBoard = new Board($("replay-board"), { coordinates: false });

$("watch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  send("watch", { folder: $("watch-folder").value });
});

// What this server may watch (camelpy gui --watch, --watch-root): offered in the folder box; the server
// refuses any other folder.
function setWatchable(watchable) {
  const list = $("watch-folders");
  list.innerHTML = "";
  for (const folder of [...watchable.folders, ...watchable.roots, ...watchable.below]) list.appendChild(new Option(folder, folder));
  const named = [...watchable.folders, ...watchable.roots.map((root) => `any folder below ${root}`)];
  $("watch-allowed").textContent = named.length
    ? `This server watches: ${named.join("; ")}`
    : "This server watches no folder: start it with camelpy gui --watch FOLDER or --watch-root DIR.";
}

function setSkipped(count) {
  $("w-skipped").textContent = count ? `${count} line${count === 1 ? "" : "s"} of the run's files skipped (not events)` : "";
  $("w-skipped").dataset.skipped = count || 0;
}

function showWatch(watch) {
  $("watch-folder").value = watch.folder;
  setSkipped(watch.skipped);
  for (const { card } of watchCards.values()) card.remove();
  watchCards.clear();
  $("w-finished").innerHTML = "";
  watchHistory = watch.history.slice();
  setRun(watch.run, watch.ended);
  watch.running.forEach(addGameCard);
  watch.finished.forEach(addFinished);
  if (watch.status) setStatus(watch.status);
  else $("w-status").textContent = watch.run ? "" : "waiting for the match to start…";
  setStandings(watch.standings);
  drawPlot();
}

function setRun(run, ended) {
  watchRun = run;
  if (!run) {
    $("w-title").textContent = "Waiting for events…";
    return;
  }
  const what = run.kind === "tournament" ? "Tournament" : "Match";
  $("w-title").textContent = `${what}: ${run.event}` + (ended ? ` — ${ended}` : "");
  $("w-title").dataset.ended = ended || "";
}

function setStatus(status) {
  const parts = [`${status.games} game${status.games === 1 ? "" : "s"}`, `+${status.wins} =${status.draws} −${status.losses}`];
  if (status.elo) parts.push(`Elo ${status.elo.elo.toFixed(1)} ± ${((status.elo.upper - status.elo.lower) / 2).toFixed(1)}`);
  if (status.llr !== null && status.llr !== undefined && status.bounds)
    parts.push(`LLR ${status.llr.toFixed(2)} (${status.bounds[0].toFixed(2)}, ${status.bounds[1].toFixed(2)})`);
  parts.push(`ptnml ${JSON.stringify(status.pentanomial)}`);
  if (status.decision) parts.push(`${status.decision} accepted`);
  $("w-status").textContent = parts.join("  ·  ");
  $("w-status").dataset.games = status.games;
}

function setStandings(rows) {
  const box = $("w-standings");
  box.innerHTML = "";
  if (!rows) return;
  const table = document.createElement("table");
  table.className = "standings";
  table.innerHTML = "<tr><th>#</th><th>player</th><th>points</th><th>games</th></tr>";
  rows.forEach(([name, points, games], i) => {
    const tr = document.createElement("tr");
    for (const value of [i + 1, name, points, games]) {
      const td = document.createElement("td");
      td.textContent = value;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  });
  box.appendChild(table);
}

function drawPlot() {
  const svg = $("w-plot");
  svg.innerHTML = "";
  svg.classList.toggle("hidden", watchHistory.length < 1);
  if (!watchHistory.length) return;
  const W = 400, H = 150, pad = 4;
  const maxGames = Math.max(...watchHistory.map((p) => p[0]), 2);
  // A one-sided start (all wins) has an unbounded estimate: the plot shows up to ±PLOT_ELO.
  let lo = Math.min(0, ...watchHistory.map((p) => Math.max(p[2], -PLOT_ELO)));
  let hi = Math.max(0, ...watchHistory.map((p) => Math.min(p[3], PLOT_ELO)));
  if (hi - lo < 20) { hi += 10; lo -= 10; }
  const x = (g) => pad + ((W - 2 * pad) * g) / maxGames;
  const y = (e) => pad + ((H - 2 * pad) * (hi - Math.max(lo, Math.min(hi, e)))) / (hi - lo);
  const NS = "http://www.w3.org/2000/svg";
  const band = document.createElementNS(NS, "polygon");
  const upper = watchHistory.map((p) => `${x(p[0])},${y(p[3])}`);
  const lower = watchHistory.slice().reverse().map((p) => `${x(p[0])},${y(p[2])}`);
  band.setAttribute("points", upper.concat(lower).join(" "));
  band.setAttribute("class", "band");
  svg.appendChild(band);
  const zero = document.createElementNS(NS, "line");
  Object.entries({ x1: 0, x2: W, y1: y(0), y2: y(0), class: "zero" }).forEach(([k, v]) => zero.setAttribute(k, v));
  svg.appendChild(zero);
  const curve = document.createElementNS(NS, "polyline");
  curve.setAttribute("points", watchHistory.map((p) => `${x(p[0])},${y(p[1])}`).join(" "));
  curve.setAttribute("class", "elo");
  svg.appendChild(curve);
  for (const [value, yy] of [[hi, pad + 10], [lo, H - pad]]) {
    const label = document.createElementNS(NS, "text");
    label.setAttribute("x", 6);
    label.setAttribute("y", yy);
    label.setAttribute("class", "plot-label");
    label.textContent = `${value > 0 ? "+" : ""}${Math.round(value)} Elo`;
    svg.appendChild(label);
  }
  const label = document.createElementNS(NS, "text");
  label.setAttribute("x", W - 6);
  label.setAttribute("y", H - pad);
  label.setAttribute("text-anchor", "end");
  label.setAttribute("class", "plot-label");
  label.textContent = `${maxGames} games`;
  svg.appendChild(label);
}

function addGameCard(g) {
  const card = document.createElement("div");
  card.className = "card game-card";
  card.dataset.game = g.id;
  // Built from a static template; the names and the round (from the events file) go in as text only.
  card.innerHTML = `<div class="game-head"><span class="round"></span> <span class="players"></span></div>
    <div class="player-bar"><span class="name black-name"></span><span class="clock black-clock"></span></div>
    <div class="small-board"></div>
    <div class="player-bar"><span class="name white-name"></span><span class="clock white-clock"></span></div>
    <div class="moves compact"></div>`;
  card.querySelector(".round").textContent = g.id;
  card.querySelector(".players").textContent = `${g.white} – ${g.black}`;
  card.querySelector(".white-name").textContent = g.white;
  card.querySelector(".black-name").textContent = g.black;
  $("w-games").appendChild(card);
  const board = new Board(card.querySelector(".small-board"), { coordinates: false });
  board.setGame(g.variant);
  const entry = { card, board, game: g };
  watchCards.set(g.id, entry);
  updateGameCard(entry);
}

function updateGameCard(entry) {
  const g = entry.game;
  entry.board.set({ fen: g.board.fen, legal: {}, lastmove: g.board.lastmove, check: g.board.check, laser: g.board.laser || null });
  const notes = g.scores.map((s) => (s.score ? `${s.score}/${s.depth}` : ""));
  const from = Math.max(0, g.sans.length - 8);
  const moves = entry.card.querySelector(".moves");
  moves.innerHTML = "";
  g.sans.slice(from).forEach((san, i) => {
    const span = document.createElement("span");
    span.className = "move";
    span.textContent = san;
    const small = document.createElement("small");
    small.textContent = " " + notes[from + i];
    span.appendChild(small);
    moves.appendChild(span);
    moves.appendChild(document.createTextNode(" "));
  });
  entry.card.dataset.plies = g.sans.length;
  if (g.clock) {
    entry.card.querySelector(".white-clock").textContent = formatClock(g.clock.white);
    entry.card.querySelector(".black-clock").textContent = formatClock(g.clock.black);
  }
}

function addFinished(result) {
  const row = document.createElement("div");
  row.className = "finished-game";
  row.dataset.game = result.id;
  row.textContent = `${result.id}  ${result.white} – ${result.black}  ${result.result}  (${result.reason || result.termination}, ${result.plies} plies)`;
  row.title = "replay this game";
  row.addEventListener("click", () => send("replay", { id: result.id }));
  $("w-finished").prepend(row);
}

function watchEvent(event) {
  switch (event.type) {
    case "reset":
      showWatch({ folder: $("watch-folder").value, run: null, running: [], finished: [], status: null, history: [], standings: null, ended: null });
      break;
    case "run":
      for (const { card } of watchCards.values()) card.remove();
      watchCards.clear();
      setRun(event, null);
      break;
    case "game":
      if (watchCards.has(event.id)) watchCards.get(event.id).card.remove();
      addGameCard(event.game);
      break;
    case "move": {
      const entry = watchCards.get(event.id);
      if (!entry) break;
      entry.game.sans.push(event.san);
      entry.game.scores.push({ score: event.score, depth: event.depth });
      entry.game.board = event.board;
      entry.game.clock = event.clock;
      updateGameCard(entry);
      break;
    }
    case "result": {
      const entry = watchCards.get(event.id);
      if (entry) {
        entry.card.remove();
        watchCards.delete(event.id);
      }
      addFinished(event);
      break;
    }
    case "status":
      setStatus(event);
      if (event.elo && event.games) {
        watchHistory = watchHistory.filter((p) => p[0] < event.games);
        watchHistory.push([event.games, event.elo.elo, event.elo.lower, event.elo.upper]);
        drawPlot();
      }
      break;
    case "standings":
      setStandings(event.rows);
      break;
    case "end":
      setRun(watchRun, event.reason);
      break;
  }
}

function showReplay(g) {
  replayGame = g;
  replayPly = g.sans.length;
  $("w-replay").classList.remove("hidden");
  $("w-replay-title").textContent = `${g.id}: ${g.white} – ${g.black}  ${g.result}`;
  drawReplay();
}

function drawReplay() {
  const g = replayGame;
  const view = g.positions[replayPly];
  replayBoard.setGame(g.variant);
  replayBoard.set({ fen: view.fen, legal: {}, lastmove: view.lastmove, check: view.check, laser: view.laser || null });
  const notes = g.scores.map((s) => (s.score ? `${s.score}/${s.depth}` : ""));
  const start = fenTurnInfo(g.positions[0].fen);
  renderMoves($("rp-moves"), g.sans, { current: replayPly, notes, startTurnBlack: start.black, startNumber: start.number, onClick: (ply) => { replayPly = ply; drawReplay(); } });
}

$("rp-first").addEventListener("click", () => { if (replayGame) { replayPly = 0; drawReplay(); } });
$("rp-prev").addEventListener("click", () => { if (replayGame && replayPly > 0) { replayPly--; drawReplay(); } });
$("rp-next").addEventListener("click", () => { if (replayGame && replayPly < replayGame.sans.length) { replayPly++; drawReplay(); } });
$("rp-last").addEventListener("click", () => { if (replayGame) { replayPly = replayGame.sans.length; drawReplay(); } });

// ---- start ----------------------------------------------------------------------------------------

const viewOfHash = () => (["#analyse", "#watch", "#review"].includes(location.hash) ? location.hash.slice(1) : "play");
window.addEventListener("hashchange", () => showView(viewOfHash()));
showView(viewOfHash());
showGame(null, false);
// Connected once every view's script has run (review.js after this one): their handlers are defined.
document.addEventListener("DOMContentLoaded", connect);
