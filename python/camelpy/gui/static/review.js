// camelpy gui: the Review view. A pasted PGN's game is reviewed on the server (op `review`), which streams
// its progress (`review_progress`) and then the review (`review`): every position, each move's class, the
// evaluation after it and the better line. The page draws the evaluation graph (SVG, by hand), the moves
// with their classes, and the board at the move clicked (on the graph or in the list) with the better
// move as an arrow; a move of the better line shows the position it leads to.
"use strict";

const REVIEW_GRAPH_W = 400; // the graph's viewBox: plies across, White's win % up
const REVIEW_GRAPH_H = 120;
const REVIEW_GRAPH_PAD = 4;
const REVIEW_SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

const reviewBoard = new Board($("review-board"));
let reviewed = null; // the review on show (camelpy/gui/review.py's review_view)
let reviewPly = 0; // the position on show: after this many moves
let reviewStep = -1; // the better line's move on show (-1: the game's position)

function showReview(view) {
  reviewed = view;
  reviewPly = 0;
  reviewStep = -1;
  $("rv-empty").classList.toggle("hidden", !!view);
  $("rv-result").classList.toggle("hidden", !view);
  if (!view) return;
  $("rv-title").textContent = `${view.white} – ${view.black}  ${view.result}`;
  const which = view.games > 1 ? `game ${view.game} of ${view.games}, ` : "";
  $("rv-settings").textContent = `${which}${view.nodes.toLocaleString()} nodes a position`;
  drawReviewSummary();
  drawReviewCritical();
  drawReview();
}

// The largest swings, largest first: each a button to its move.
function drawReviewCritical() {
  const box = $("rv-critical");
  box.innerHTML = "";
  if (!reviewed.critical.length) return;
  const label = document.createElement("span");
  label.className = "rv-label";
  label.textContent = "Critical moments:";
  box.appendChild(label);
  for (const ply of reviewed.critical) {
    const move = reviewed.moves[ply - 1];
    const chip = document.createElement("span");
    chip.className = "pv-move j-" + move.judgement;
    chip.dataset.ply = ply;
    chip.textContent = `${move.label}${REVIEW_SYMBOLS[move.judgement] || ""} (−${Math.round(move.loss)} %)`;
    chip.addEventListener("click", () => reviewGoto(ply));
    box.appendChild(chip);
  }
}

function showReviewProgress(running, done, total) {
  $("rv-stop").classList.toggle("hidden", !running);
  $("rv-progress").classList.toggle("hidden", !running);
  $("rv-progress-fill").style.width = (total ? (100 * done) / total : 0) + "%";
  $("rv-progress-text").textContent = running ? `reviewing… ${done}/${total} positions` : "";
  $("rv-progress").dataset.done = done;
}

function drawReviewSummary() {
  const table = $("rv-summary");
  table.innerHTML = "";
  const head = document.createElement("tr");
  for (const title of ["", "", "accuracy", "?!", "?", "??"]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const [side, name] of [["white", reviewed.white], ["black", reviewed.black]]) {
    const row = document.createElement("tr");
    const mine = reviewed.moves.filter((m, i) => reviewed.positions[i].turn === side);
    const accuracy = reviewed.accuracy[side];
    const cells = [side === "white" ? "White" : "Black", name, accuracy === null ? "–" : accuracy.toFixed(1)];
    for (const judgement of ["inaccuracy", "mistake", "blunder"]) cells.push(mine.filter((m) => m.judgement === judgement).length);
    for (const value of cells) {
      const td = document.createElement("td");
      td.textContent = value;
      row.appendChild(td);
    }
    row.dataset.side = side;
    table.appendChild(row);
  }
}

function reviewGoto(ply, step = -1) {
  if (!reviewed) return;
  reviewPly = Math.max(0, Math.min(ply, reviewed.moves.length));
  reviewStep = step;
  drawReview();
}

function drawReview() {
  const view = reviewed;
  const move = reviewPly > 0 ? view.moves[reviewPly - 1] : null;
  const better = move ? move.best : [];
  if (reviewStep >= 0 && reviewStep < better.length) {
    // A position of the better line: its move as the last one, the line's next move as the arrow.
    const step = better[reviewStep];
    reviewBoard.set({ fen: step.fen, legal: {}, lastmove: step.uci, check: null });
    const next = better[reviewStep + 1];
    reviewBoard.setArrows(next ? [[next.uci.slice(0, 2), next.uci.slice(2, 4)]] : []);
  } else {
    const position = view.positions[reviewPly];
    reviewBoard.set({ fen: position.fen, legal: {}, lastmove: position.lastmove, check: position.check });
    // The better move (from the position before the move played), drawn on the position after it.
    reviewBoard.setArrows(better.length ? [[better[0].uci.slice(0, 2), better[0].uci.slice(2, 4)]] : []);
  }
  const black = reviewBoard.orientation === "white";
  $("rv-top-name").textContent = black ? view.black : view.white;
  $("rv-bottom-name").textContent = black ? view.white : view.black;
  const start = fenTurnInfo(view.positions[0].fen);
  renderMoves($("rv-moves"), view.moves.map((m) => m.san), {
    current: reviewPly,
    notes: view.moves.map((m) => REVIEW_SYMBOLS[m.judgement] || ""),
    onClick: (ply) => reviewGoto(ply),
    startTurnBlack: start.black,
    startNumber: start.number,
  });
  for (const element of $("rv-moves").querySelectorAll(".move")) {
    const judgement = view.moves[Number(element.dataset.ply) - 1].judgement;
    element.dataset.judgement = judgement;
    element.classList.add("j-" + judgement);
  }
  drawReviewMove(move);
  drawReviewGraph();
}

// The move on show: its class, the evaluation after it, and the better line (each move a button).
function drawReviewMove(move) {
  const box = $("rv-move");
  box.innerHTML = "";
  if (!move) {
    box.textContent = "The start: click a move or the graph.";
    return;
  }
  const head = document.createElement("div");
  head.className = "rv-head j-" + move.judgement;
  const white = reviewed.positions[move.ply - 1].turn === "white";
  const loss = move.loss > 0 ? `, −${move.loss.toFixed(1)} % for ${white ? "White" : "Black"}` : "";
  head.textContent = `${move.label}${REVIEW_SYMBOLS[move.judgement] || ""}  ${move.judgement}  (${move.score.text}${loss})`;
  box.appendChild(head);
  if (!move.best.length) return;
  const line = document.createElement("div");
  line.className = "rv-better";
  line.id = "rv-better";
  const label = document.createElement("span");
  label.className = "rv-label";
  label.textContent = `${move.best_san} was better: `;
  line.appendChild(label);
  move.best.forEach((step, i) => {
    const chip = document.createElement("span");
    chip.className = "pv-move" + (i === reviewStep ? " current" : "");
    chip.dataset.step = i;
    chip.textContent = step.san;
    chip.title = "show the better line up to here";
    chip.addEventListener("click", () => reviewGoto(reviewPly, i === reviewStep ? -1 : i));
    line.appendChild(chip);
  });
  box.appendChild(line);
}

function drawReviewGraph() {
  const view = reviewed;
  const svg = $("rv-graph");
  svg.innerHTML = "";
  const W = REVIEW_GRAPH_W, H = REVIEW_GRAPH_H, pad = REVIEW_GRAPH_PAD;
  const plies = Math.max(view.moves.length, 1);
  const x = (ply) => pad + ((W - 2 * pad) * ply) / plies;
  const y = (win) => pad + ((H - 2 * pad) * (100 - win)) / 100;
  const wins = [view.start_win, ...view.moves.map((m) => m.win)];
  const points = wins.map((win, ply) => `${x(ply).toFixed(2)},${y(win).toFixed(2)}`);
  const add = (tag, attrs) => svg.appendChild(svgElement(tag, attrs));
  const [left, right] = [x(0), x(wins.length - 1)];
  add("rect", { x: left, y: 0, width: right - left, height: H, class: "rv-black" });
  add("polygon", { points: [`${left},${H}`, ...points, `${right},${H}`].join(" "), class: "rv-white" });
  add("line", { x1: left, x2: right, y1: y(50), y2: y(50), class: "rv-mid" });
  add("polyline", { points: points.join(" "), class: "rv-curve" });
  add("line", { x1: x(reviewPly), x2: x(reviewPly), y1: 0, y2: H, class: "rv-now" });
  view.moves.forEach((m, i) => {
    if (!REVIEW_SYMBOLS[m.judgement]) return;
    const dot = add("circle", { cx: x(i + 1), cy: y(m.win), r: 3.2, class: "rv-dot j-" + m.judgement, "data-ply": i + 1 });
    const title = svgElement("title");
    title.textContent = `${m.san}${REVIEW_SYMBOLS[m.judgement]} (${m.judgement})`;
    dot.appendChild(title);
  });
}

// A click on the graph: the nearest ply (the graph keeps its shape, so the x fraction is the ply's).
$("rv-graph").addEventListener("click", (event) => {
  if (!reviewed) return;
  const box = $("rv-graph").getBoundingClientRect();
  const inside = ((event.clientX - box.left) / box.width) * REVIEW_GRAPH_W - REVIEW_GRAPH_PAD;
  const plies = Math.max(reviewed.moves.length, 1);
  reviewGoto(Math.round((inside / (REVIEW_GRAPH_W - 2 * REVIEW_GRAPH_PAD)) * plies));
});

$("rv-start").addEventListener("click", () =>
  send("review", { text: $("rv-text").value, nodes: Number($("rv-nodes").value), game: Number($("rv-game").value) || 1 }),
);
$("rv-stop").addEventListener("click", () => send("review_stop"));
$("rv-first").addEventListener("click", () => reviewGoto(0));
$("rv-prev").addEventListener("click", () => reviewed && reviewGoto(reviewStep >= 0 ? reviewPly : reviewPly - 1));
$("rv-next").addEventListener("click", () => reviewed && reviewGoto(reviewPly + 1));
$("rv-last").addEventListener("click", () => reviewed && reviewGoto(reviewed.moves.length));
$("rv-flip").addEventListener("click", () => {
  reviewBoard.flip();
  if (reviewed) drawReview();
});
document.addEventListener("keydown", (event) => {
  if ($("view-review").classList.contains("hidden") || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
  if (event.key === "ArrowLeft") $("rv-prev").click();
  if (event.key === "ArrowRight") $("rv-next").click();
});
// The game just played, reviewed: its PGN into the Review view.
$("pgn-review").addEventListener("click", () => {
  $("rv-text").value = $("play-pgn").value;
  $("rv-game").value = 1;
  showView("review");
  $("rv-start").click();
});
