// camelpy gui: the chess board, drawn as SVG. Moves by click-click or drag and drop, legal-move dots,
// the last move, check, arrows, and a promotion chooser. The legal moves come from the server (UCI,
// grouped by from-square); the board never decides legality itself.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const FILES = "abcdefgh";
const START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const DRAG_THRESHOLD = 0.15; // squares the pointer must travel before a press becomes a drag

function squareName(file, rank) {
  return FILES[file] + (rank + 1);
}

function squareCoords(name) {
  return [FILES.indexOf(name[0]), Number(name[1]) - 1];
}

// The piece placement of a FEN (rows from the top, `ranks` of them) as {square: "P" | "n" | ...}.
function placement(fen, ranks = 8) {
  const pieces = {};
  const rows = fen.split(" ")[0].split("/");
  for (let i = 0; i < ranks && i < rows.length; i++) {
    let file = 0;
    for (const ch of rows[i]) {
      if (ch >= "1" && ch <= "8") file += Number(ch);
      else pieces[squareName(file++, ranks - 1 - i)] = ch;
    }
  }
  return pieces;
}

function pieceCode(ch) {
  return ch === ch.toUpperCase() ? "w" + ch : "b" + ch.toUpperCase();
}

function svgElement(tag, attrs) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, value);
  return el;
}

class Board {
  // el: a container element; options.onMove(uci) is called with a legal move the user made.
  constructor(el, options = {}) {
    this.el = el;
    this.onMove = options.onMove || null;
    this.coordinates = options.coordinates !== false;
    this.orientation = "white";
    this.files = 8;
    this.ranks = 8;
    this.fen = START_FEN;
    this.legal = {};
    this.lastmove = null;
    this.check = null;
    this.arrows = [];
    this.laser = null;
    this.style = null; // another game's drawing and squares (setGame), else chess's own
    this.selected = null;
    this.press = null;
    this.el.classList.add("board");
    this.svg = svgElement("svg", { viewBox: "0 0 8 8", class: "board-svg" });
    this.el.appendChild(this.svg);
    this.promotion = document.createElement("div");
    this.promotion.className = "promotion hidden";
    this.el.appendChild(this.promotion);
    if (this.onMove) {
      this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
      this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
      this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
      this.svg.addEventListener("pointercancel", () => this.cancelDrag());
    }
    this.render();
  }

  // state: {fen, legal, lastmove, check}; a missing key keeps its value.
  set(state) {
    if (state.fen !== undefined) this.fen = state.fen;
    if (state.legal !== undefined) this.legal = state.legal || {};
    if (state.lastmove !== undefined) this.lastmove = state.lastmove;
    if (state.check !== undefined) this.check = state.check;
    if (state.laser !== undefined) this.laser = state.laser;
    this.selected = null;
    this.hidePromotion();
    this.render();
  }

  // The board's shape: chess is 8 × 8, MiniChess 5 files × 6 ranks.
  setSize(files, ranks) {
    if (files === this.files && ranks === this.ranks) return;
    this.files = files;
    this.ranks = ranks;
    this.svg.setAttribute("viewBox", `0 0 ${files} ${ranks}`);
    this.el.style.aspectRatio = `${files} / ${ranks}`;
    this.promotion.style.width = `${100 / files}%`;
    this.render();
  }

  // The game whose board this is: one with a style in window.BOARD_STYLES (leiserboard.js's Leiserchess)
  // draws, names and moves its own way; any other game is drawn as chess.
  setGame(name) {
    const style = (window.BOARD_STYLES || {})[name] || null;
    if (style === this.style) return;
    this.style = style;
    this.selected = null;
    this.render();
  }

  setArrows(arrows) {
    this.arrows = arrows || [];
    this.render();
  }

  setOrientation(color) {
    this.orientation = color;
    this.render();
  }

  flip() {
    this.setOrientation(this.orientation === "white" ? "black" : "white");
  }

  // Board coordinates (x, y in squares from the top left) of a square.
  xy(name) {
    if (this.style) return this.style.xy(this, name);
    const [file, rank] = squareCoords(name);
    return this.orientation === "white" ? [file, this.ranks - 1 - rank] : [this.files - 1 - file, rank];
  }

  squareAt(event) {
    if (this.style) return this.style.squareAt(this, event);
    const box = this.svg.getBoundingClientRect();
    const x = Math.floor(((event.clientX - box.left) / box.width) * this.files);
    const y = Math.floor(((event.clientY - box.top) / box.height) * this.ranks);
    if (x < 0 || x >= this.files || y < 0 || y >= this.ranks) return null;
    return this.orientation === "white" ? squareName(x, this.ranks - 1 - y) : squareName(this.files - 1 - x, y);
  }

  render() {
    if (this.style) return this.style.render(this);
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const pieces = placement(this.fen, this.ranks);
    const dests = this.selected ? (this.legal[this.selected] || []).map((u) => u.slice(2, 4)) : [];
    for (let rank = 0; rank < this.ranks; rank++) {
      for (let file = 0; file < this.files; file++) {
        const name = squareName(file, rank);
        const [x, y] = this.xy(name);
        // a1 is dark on both boards (MiniChess's a1 too).
        const classes = ["sq", (file + rank) % 2 ? "light" : "dark"];
        if (this.lastmove && (this.lastmove.slice(0, 2) === name || this.lastmove.slice(2, 4) === name))
          classes.push("last");
        if (this.selected === name) classes.push("selected");
        svg.appendChild(svgElement("rect", { x, y, width: 1, height: 1, class: classes.join(" "), "data-square": name }));
        if (this.check === name)
          svg.appendChild(svgElement("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.5, class: "check" }));
      }
    }
    if (this.coordinates) {
      // Text is drawn at 100 units a square: Chromium does not draw fonts of a fraction of a unit.
      const coords = svgElement("g", { transform: "scale(0.01)", class: "coords" });
      const bottomRank = this.orientation === "white" ? 0 : this.ranks - 1;
      for (let i = 0; i < this.files; i++) {
        const file = this.orientation === "white" ? i : this.files - 1 - i;
        const onLight = (file + bottomRank) % 2 === 1;
        const fileText = svgElement("text", { x: i * 100 + 96, y: this.ranks * 100 - 5, "font-size": 19, class: "coord " + (onLight ? "on-light" : "on-dark"), "text-anchor": "end" });
        fileText.textContent = FILES[file];
        coords.appendChild(fileText);
      }
      const leftFile = this.orientation === "white" ? 0 : this.files - 1;
      for (let i = 0; i < this.ranks; i++) {
        const rank = this.orientation === "white" ? this.ranks - 1 - i : i;
        const onLight = (leftFile + rank) % 2 === 1;
        const rankText = svgElement("text", { x: 4, y: i * 100 + 20, "font-size": 19, class: "coord " + (onLight ? "on-light" : "on-dark") });
        rankText.textContent = rank + 1;
        coords.appendChild(rankText);
      }
      svg.appendChild(coords);
    }
    for (const [name, ch] of Object.entries(pieces)) {
      if (this.press && this.press.dragging && this.press.from === name) continue;
      const [x, y] = this.xy(name);
      svg.appendChild(svgElement("image", { href: `/pieces/${pieceCode(ch)}.svg`, x, y, width: 1, height: 1, class: "piece", "data-piece": pieceCode(ch), "data-square": name }));
    }
    for (const dest of new Set(dests)) {
      const [x, y] = this.xy(dest);
      const capture = pieces[dest] !== undefined;
      svg.appendChild(svgElement("circle", capture
        ? { cx: x + 0.5, cy: y + 0.5, r: 0.45, class: "dest capture", "data-dest": dest }
        : { cx: x + 0.5, cy: y + 0.5, r: 0.16, class: "dest", "data-dest": dest }));
    }
    if (this.arrows.length) {
      const defs = svgElement("defs");
      const marker = svgElement("marker", { id: "arrowhead-" + this.el.id, markerWidth: 4, markerHeight: 4, refX: 2.05, refY: 2, orient: "auto", markerUnits: "strokeWidth" });
      marker.appendChild(svgElement("path", { d: "M0,0 L4,2 L0,4 z", class: "arrowhead" }));
      defs.appendChild(marker);
      svg.appendChild(defs);
      for (const [from, to] of this.arrows) {
        const [x1, y1] = this.xy(from);
        const [x2, y2] = this.xy(to);
        const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
        const shorten = 0.3;
        svg.appendChild(svgElement("line", {
          x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5 - (dx / len) * shorten, y2: y2 + 0.5 - (dy / len) * shorten,
          class: "arrow", "marker-end": `url(#arrowhead-${this.el.id})`, "data-arrow": from + to,
        }));
      }
    }
    if (this.press && this.press.dragging) {
      const ch = pieces[this.press.from];
      this.dragImage = svgElement("image", { href: `/pieces/${pieceCode(ch)}.svg`, x: this.press.x - 0.5, y: this.press.y - 0.5, width: 1, height: 1, class: "piece dragging" });
      svg.appendChild(this.dragImage);
    }
  }

  boardPoint(event) {
    const box = this.svg.getBoundingClientRect();
    return [((event.clientX - box.left) / box.width) * this.files, ((event.clientY - box.top) / box.height) * this.ranks];
  }

  pointerDown(event) {
    if (event.button !== undefined && event.button !== 0) return;
    const square = this.squareAt(event);
    if (!square) return;
    event.preventDefault();
    if (this.selected && this.selected !== square && this.destinations(this.selected).includes(square)) {
      this.tryMove(this.selected, square);
      return;
    }
    if (this.movable(square)) {
      const [x, y] = this.boardPoint(event);
      this.press = { from: square, x, y, startX: x, startY: y, dragging: false, wasSelected: this.selected === square };
      this.selected = square;
      this.svg.setPointerCapture && this.svg.setPointerCapture(event.pointerId);
      this.render();
    } else {
      this.selected = null;
      this.render();
    }
  }

  pointerMove(event) {
    if (!this.press) return;
    const [x, y] = this.boardPoint(event);
    this.press.x = x;
    this.press.y = y;
    if (!this.press.dragging && Math.hypot(x - this.press.startX, y - this.press.startY) > DRAG_THRESHOLD) {
      this.press.dragging = true;
      this.render();
    } else if (this.press.dragging && this.dragImage) {
      this.dragImage.setAttribute("x", x - 0.5);
      this.dragImage.setAttribute("y", y - 0.5);
    }
  }

  pointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press) return;
    const square = this.squareAt(event);
    if (press.dragging) {
      if (square && square !== press.from && this.destinations(press.from).includes(square)) {
        this.tryMove(press.from, square);
        return;
      }
      this.selected = null;
    } else if (press.wasSelected && square === press.from) {
      this.selected = null; // a second click on the selected piece lets it go
    }
    this.render();
  }

  cancelDrag() {
    this.press = null;
    this.render();
  }

  // Whether a press on `square` picks up a piece (chess: one with a legal move).
  movable(square) {
    if (this.style) return this.style.movable(this, square);
    return !!(this.legal[square] && this.legal[square].length);
  }

  destinations(from) {
    if (this.style) return this.style.destinations(this, from);
    return (this.legal[from] || []).map((u) => u.slice(2, 4));
  }

  tryMove(from, to) {
    if (this.style) return this.style.tryMove(this, from, to);
    const candidates = (this.legal[from] || []).filter((u) => u.slice(2, 4) === to);
    this.selected = null;
    if (candidates.length === 0) {
      this.render();
    } else if (candidates.length === 1) {
      this.render();
      this.onMove(candidates[0]);
    } else {
      this.render();
      this.showPromotion(from, to, candidates);
    }
  }

  showPromotion(from, to, candidates) {
    const white = placement(this.fen, this.ranks)[from] === "P";
    const box = this.promotion;
    box.innerHTML = "";
    const [x] = this.xy(to);
    box.style.left = (x * 100 / this.files) + "%";
    for (const letter of ["q", "r", "b", "n"]) {
      const uci = candidates.find((u) => u[4] === letter);
      if (!uci) continue;
      const button = document.createElement("button");
      button.className = "promo";
      button.dataset.promo = letter;
      button.title = { q: "queen", r: "rook", b: "bishop", n: "knight" }[letter];
      const img = document.createElement("img");
      img.src = `/pieces/${white ? "w" : "b"}${letter.toUpperCase()}.svg`;
      img.alt = button.title;
      button.appendChild(img);
      button.addEventListener("click", (e) => {
        e.stopPropagation();
        this.hidePromotion();
        this.onMove(uci);
      });
      box.appendChild(button);
    }
    const cancel = document.createElement("button");
    cancel.className = "promo cancel";
    cancel.textContent = "×";
    cancel.title = "cancel";
    cancel.addEventListener("click", () => this.hidePromotion());
    box.appendChild(cancel);
    box.classList.remove("hidden");
  }

  hidePromotion() {
    this.promotion.classList.add("hidden");
    this.promotion.innerHTML = "";
  }
}

window.Board = Board;
window.placement = placement;
