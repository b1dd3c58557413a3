// camelpy gui: the Leiserchess board, drawn as SVG by hand (board.js's Board draws it through
// setGame("leiserchess")). Squares a0 … h7 (rank 0 at the bottom); pawns are triangles whose long edge,
// the mirror, faces the corner their code names (NW, NE, SE, SW); kings are discs with the arrow of the
// direction their laser fires (NN, EE, SS, WW). Tangerine is orange, Lavender purple. A piece is moved
// by dragging or clicking it onto a neighbouring square (a 2018 swap, then the follow-up chosen from a
// menu); a selected piece offers its rotations (R, U, L) and the king its null move in a menu. The last
// move's laser is drawn square by square from the firing king, with the zapped pawn or the hit king
// marked. The legal moves come from the server (the course's notation, grouped by the square moved
// from) and are dotted; the board never decides legality itself: any piece of the side to move may be
// picked up and put on any neighbouring square (but one of the mover's own where no move goes: that
// picks it up instead), and a move the rules forbid (Ko, a pinned pawn) goes to the server, which answers
// with its reason.
"use strict";

(() => {
  const NS = "http://www.w3.org/2000/svg";
  const FILES = "abcdefgh";
  const RANK_BASE = 0; // Leiserchess numbers its ranks from 0
  // Each pawn code's corners as [x, y] in the square (0, 0 top left): the corner the mirror faces first.
  const CORNERS = { NW: [0, 0], NE: [1, 0], SE: [1, 1], SW: [0, 1] };
  const KING_DIRS = { NN: [0, -1], EE: [1, 0], SS: [0, 1], WW: [-1, 0] };
  const TURNS = { R: "↻ R", U: "⟲ U", L: "↺ L" };
  const TURN_WORDS = { R: "turn right", U: "turn round", L: "turn left" };

  function el(tag, attrs) {
    const node = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  const isSquare = (text) => typeof text === "string" && /^[a-h][0-7]$/.test(text);

  // The pieces of a Leiserchess FEN as {square: code} ("NW", "ss", …).
  function pieces(fen) {
    const found = {};
    const rows = (fen || "").split(" ")[0].split("/");
    rows.forEach((row, i) => {
      let file = 0;
      for (const token of row.match(/[1-8]|[A-Za-z]{2}/g) || []) {
        if (/[1-8]/.test(token)) file += Number(token);
        else if (file < 8 && i < 8 && (CORNERS[token.toUpperCase()] || KING_DIRS[token.toUpperCase()]))
          found[FILES[file++] + (7 - i)] = token;
        else file++; // not a Leiserchess piece (another game's position, shown a moment before its own)
      }
    });
    return found;
  }

  function xy(board, name) {
    const file = FILES.indexOf(name[0]);
    const rank = Number(name.slice(1)) - RANK_BASE;
    return board.orientation === "white" ? [file, board.ranks - 1 - rank] : [board.files - 1 - file, rank];
  }

  function squareAt(board, event) {
    const box = board.svg.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * board.files);
    const y = Math.floor(((event.clientY - box.top) / box.height) * board.ranks);
    if (x < 0 || x >= board.files || y < 0 || y >= board.ranks) return null;
    const [file, rank] = board.orientation === "white" ? [x, board.ranks - 1 - y] : [board.files - 1 - x, y];
    return FILES[file] + (rank + RANK_BASE);
  }

  // A corner of the square at (x, y) as seen on screen: a flipped board turns the pieces round too.
  function corner(board, [cx, cy]) {
    return board.orientation === "white" ? [cx, cy] : [1 - cx, 1 - cy];
  }

  function drawPawn(board, group, code, x, y) {
    const facing = corner(board, CORNERS[code.toUpperCase()]);
    const others = Object.values(CORNERS).map((c) => corner(board, c)).filter(([a, b]) => a !== facing[0] || b !== facing[1]);
    const inset = 0.12;
    const at = ([a, b]) => [x + inset + a * (1 - 2 * inset), y + inset + b * (1 - 2 * inset)];
    const points = others.map((c) => at(c).join(",")).join(" ");
    group.appendChild(el("polygon", { points, class: "leiser-pawn" }));
    // The mirror: the edge between the two corners next to the one it faces.
    const [m1, m2] = others.filter(([a, b]) => a === facing[0] || b === facing[1]).map(at);
    group.appendChild(el("line", { x1: m1[0], y1: m1[1], x2: m2[0], y2: m2[1], class: "leiser-mirror" }));
  }

  function drawKing(board, group, code, x, y) {
    let [dx, dy] = KING_DIRS[code.toUpperCase()];
    if (board.orientation !== "white") [dx, dy] = [-dx, -dy];
    const cx = x + 0.5, cy = y + 0.5;
    group.appendChild(el("circle", { cx, cy, r: 0.3, class: "leiser-king" }));
    // The laser's muzzle: a triangle from the disc's edge towards the side it fires.
    const tip = [cx + dx * 0.46, cy + dy * 0.46];
    const base = [cx + dx * 0.2, cy + dy * 0.2];
    const side = [-dy * 0.16, dx * 0.16];
    const points = [tip, [base[0] + side[0], base[1] + side[1]], [base[0] - side[0], base[1] - side[1]]];
    group.appendChild(el("polygon", { points: points.map((p) => p.join(",")).join(" "), class: "leiser-muzzle" }));
    group.appendChild(el("circle", { cx, cy, r: 0.1, class: "leiser-crown" }));
  }

  function drawLaser(board, svg) {
    const laser = board.laser;
    if (!laser || !laser.shots || !isSquare(laser.from)) return;
    const layer = el("g", { class: "leiser-laser", "data-laser-from": laser.from });
    const centre = (name) => xy(board, name).map((v) => v + 0.5);
    laser.shots.forEach((shot, index) => {
      const points = [centre(laser.from), ...shot.squares.filter(isSquare).map(centre)];
      const last = index === laser.shots.length - 1;
      // Shots before the last were cut short by their zap: drawn fainter, the last on top.
      layer.appendChild(el("polyline", { points: points.map((p) => p.join(",")).join(" "), class: "laser-beam" + (last ? " final" : " earlier"), "data-shot": index }));
      shot.squares.filter(isSquare).forEach((name, step) => {
        const [cx, cy] = centre(name);
        layer.appendChild(el("circle", { cx, cy, r: 0.06, class: "laser-step", "data-laser-square": name, "data-shot": index, style: `animation-delay: ${(step * 0.04).toFixed(2)}s` }));
      });
      if (isSquare(shot.square)) {
        const [cx, cy] = centre(shot.square);
        if (shot.end === "zap") {
          const burst = el("g", { class: "laser-zap", "data-zapped": shot.square });
          burst.appendChild(el("circle", { cx, cy, r: 0.28 }));
          burst.appendChild(el("path", { d: `M${cx - 0.2},${cy - 0.2} L${cx + 0.2},${cy + 0.2} M${cx + 0.2},${cy - 0.2} L${cx - 0.2},${cy + 0.2}` }));
          layer.appendChild(burst);
        } else if (shot.end === "king") {
          layer.appendChild(el("circle", { cx, cy, r: 0.45, class: "laser-hit", "data-hit": shot.square }));
        }
      }
    });
    svg.appendChild(layer);
  }

  function render(board) {
    const svg = board.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const placed = pieces(board.fen);
    const last = board.lastmove || "";
    const lastSquares = [last.slice(0, 2), last.slice(2, 4), last.slice(4, 6)].filter(isSquare);
    for (let rank = 0; rank < board.ranks; rank++) {
      for (let file = 0; file < board.files; file++) {
        const name = FILES[file] + (rank + RANK_BASE);
        const [x, y] = xy(board, name);
        const classes = ["sq", (file + rank) % 2 ? "light" : "dark"];
        if (lastSquares.includes(name)) classes.push("last");
        if (board.selected === name) classes.push("selected");
        svg.appendChild(el("rect", { x, y, width: 1, height: 1, class: classes.join(" "), "data-square": name }));
      }
    }
    if (board.coordinates) {
      const coords = el("g", { transform: "scale(0.01)", class: "coords" });
      const bottomRank = board.orientation === "white" ? 0 : 7;
      const leftFile = board.orientation === "white" ? 0 : 7;
      const tone = (file, rank) => "coord " + ((file + rank) % 2 ? "on-light" : "on-dark");
      for (let i = 0; i < 8; i++) {
        const file = board.orientation === "white" ? i : 7 - i;
        const rank = board.orientation === "white" ? 7 - i : i;
        const fileText = el("text", { x: i * 100 + 96, y: 795, "font-size": 19, class: tone(file, bottomRank), "text-anchor": "end" });
        fileText.textContent = FILES[file];
        const rankText = el("text", { x: 4, y: i * 100 + 20, "font-size": 19, class: tone(leftFile, rank) });
        rankText.textContent = rank + RANK_BASE;
        coords.append(fileText, rankText);
      }
      svg.appendChild(coords);
    }
    for (const [name, code] of Object.entries(placed)) {
      const [x, y] = xy(board, name);
      const side = code === code.toUpperCase() ? "tangerine" : "lavender";
      const group = el("g", { class: `leiser-piece ${side}`, "data-square": name, "data-piece": code });
      if (KING_DIRS[code.toUpperCase()]) drawKing(board, group, code, x, y);
      else drawPawn(board, group, code, x, y);
      svg.appendChild(group);
    }
    drawLaser(board, svg);
    if (board.selected) {
      for (const dest of new Set(legalTargets(board, board.selected))) {
        const [x, y] = xy(board, dest);
        const occupied = placed[dest] !== undefined;
        svg.appendChild(el("circle", occupied
          ? { cx: x + 0.5, cy: y + 0.5, r: 0.45, class: "dest capture", "data-dest": dest }
          : { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: "dest", "data-dest": dest }));
      }
    }
    for (const [from, to] of board.arrows || []) {
      if (!isSquare(from)) continue;
      const [x1, y1] = xy(board, from);
      if (!isSquare(to) || to === from) {
        svg.appendChild(el("circle", { cx: x1 + 0.5, cy: y1 + 0.5, r: 0.42, class: "leiser-hint", "data-arrow": from + (to || "") }));
        continue;
      }
      const [x2, y2] = xy(board, to);
      svg.appendChild(el("line", { x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5, class: "arrow leiser-arrow", "data-arrow": from + to }));
    }
    showMenu(board, board.selected ? inPlace(board, board.selected) : []);
  }

  // While the person may move (the server sent legal moves): any piece of the side to move.
  function movable(board, square) {
    if (!Object.keys(board.legal || {}).length) return false;
    const code = pieces(board.fen)[square];
    const white = (board.fen || "").split(" ")[1] === "W";
    return code !== undefined && (code === code.toUpperCase()) === white;
  }

  // Where a piece may be put: every neighbouring square (the rules' own moves are dotted by render).
  function destinations(board, from) {
    const file = FILES.indexOf(from[0]), rank = Number(from.slice(1));
    const found = [];
    for (const df of [-1, 0, 1]) for (const dr of [-1, 0, 1]) {
      const f = file + df, r = rank + dr;
      if ((df || dr) && f >= 0 && f < 8 && r >= RANK_BASE && r < 8 + RANK_BASE) found.push(FILES[f] + r);
    }
    return found;
  }

  // The neighbouring squares the rules' moves from `from` go to (a shift's, or a swap's first square).
  function legalTargets(board, from) {
    return (board.legal[from] || []).map((m) => m.slice(2, 4)).filter((d) => isSquare(d) && d !== from);
  }

  // The selected piece's moves that stay on its square: its three rotations and a king's null move,
  // each offered even when the rules forbid it now (the server then says why: Ko, ...).
  function inPlace(board, from) {
    const king = KING_DIRS[(pieces(board.fen)[from] || "").toUpperCase()] !== undefined;
    return [from + "R", from + "U", from + "L", ...(king ? [from + from] : [])];
  }

  function label(move) {
    if (move.length === 3) return TURNS[move[2]];
    if (move.length === 4 && move.slice(0, 2) === move.slice(2)) return "fire (null)";
    if (move.length === 5) return `swap ${move.slice(2, 4)}, then ${TURNS[move[4]]}`;
    if (move.length === 6) return `swap ${move.slice(2, 4)}, then to ${move.slice(4)}`;
    return move;
  }

  // The menu of moves just under the board, below the piece's file (an empty list hides it): it covers
  // no square, so the piece can still be dragged anywhere.
  function showMenu(board, moves) {
    let menu = board.leiserMenu;
    if (!menu) {
      menu = board.leiserMenu = document.createElement("div");
      menu.className = "leiser-menu hidden";
      board.el.appendChild(menu);
    }
    menu.innerHTML = "";
    menu.classList.toggle("hidden", moves.length === 0);
    if (!moves.length) return;
    const [x] = xy(board, moves[0].slice(0, 2));
    menu.style.left = `${Math.min(x, board.files / 2) * 100 / board.files}%`;
    for (const move of moves) {
      const button = document.createElement("button");
      button.type = "button";
      const allowed = (board.legal[move.slice(0, 2)] || []).includes(move);
      button.className = "leiser-action" + (allowed ? "" : " forbidden");
      button.dataset.move = move;
      button.textContent = label(move);
      const words = move.length === 3 ? `${move}: ${TURN_WORDS[move[2]]}` : move;
      button.title = allowed ? words : `${words}: the rules forbid it here`;
      button.addEventListener("pointerdown", (e) => e.stopPropagation());
      button.addEventListener("click", (e) => {
        e.stopPropagation();
        board.selected = null;
        showMenu(board, []);
        board.render();
        board.onMove(move);
      });
      menu.appendChild(button);
    }
  }

  // A piece dropped (or clicked) onto a neighbouring square: the one move there, or under the 2018 rules
  // the swap's follow-ups to choose from; with none, the shift itself, for the server to say why not.
  function tryMove(board, from, to) {
    const candidates = (board.legal[from] || []).filter((m) => m.slice(2, 4) === to && m !== from + from);
    const switching = !candidates.length && movable(board, to); // another of one's pieces: pick it up
    board.selected = switching ? to : null;
    board.render();
    if (switching) return;
    if (candidates.length > 1) showMenu(board, candidates);
    else board.onMove(candidates.length ? candidates[0] : from + to);
  }

  const style = { rankBase: RANK_BASE, xy, squareAt, render, tryMove, movable, destinations };
  window.BOARD_STYLES = Object.assign(window.BOARD_STYLES || {}, { leiserchess: style, leiserchess2018: style });
})();
