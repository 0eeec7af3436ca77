// The board: an SVG drawing of the points, roads, railways, camps,
// headquarters and mountains (from the topology the server sends), the
// pieces of a position string, and what goes over them (selection, legal
// destinations, the last action, the engine's principal variations as
// arrows, its belief about the player's pieces, combat flashes). Input:
// click-click or drag with a mouse, finger or pen, and a keyboard cursor.

const SVG = 'http://www.w3.org/2000/svg';
const DX = 84;
const DY = 54;
const GAP = 46; // between ranks 6 and 7: the front line with its mountains
const MARGIN = 46; // above and below
const SIDE = 64; // left and right, room for the rank numbers
const TILE_W = 68;
const TILE_H = 34;

export const FILES = 'abcde';

// Kind letters, their Chinese and English names.
export const KINDS = ['9', '8', '7', '6', '5', '4', '3', '2', '1', 'B', 'M', 'F'];
export const ARMY = { 9: 1, 8: 1, 7: 2, 6: 2, 5: 2, 4: 2, 3: 3, 2: 3, 1: 3, B: 2, M: 3, F: 1 };
const NAMES = {
  zh: { 9: '司令', 8: '军长', 7: '师长', 6: '旅长', 5: '团长', 4: '营长', 3: '连长', 2: '排长', 1: '工兵', B: '炸弹', M: '地雷', F: '军旗', '?': '?' },
  en: { 9: 'Marshal', 8: 'General', 7: 'Maj.Gen', 6: 'Brigadier', 5: 'Colonel', 4: 'Major', 3: 'Captain', 2: 'Lieut.', 1: 'Engineer', B: 'Bomb', M: 'Mine', F: 'Flag', '?': '?' },
};

export function kindName(kind, lang) {
  return NAMES[lang][kind] ?? kind;
}

export function pointName(index) {
  return FILES[index % 5] + (Math.floor(index / 5) + 1);
}

export function pointIndex(name) {
  const m = /^([a-e])(\d{1,2})$/.exec(name);
  if (!m) return -1;
  const rank = Number(m[2]);
  return rank >= 1 && rank <= 12 ? FILES.indexOf(m[1]) + 5 * (rank - 1) : -1;
}

// The 60 cells of a position string's board field, a1 first: null for an
// empty point, '?' face down, otherwise the piece (`r9`, `b?`).
export function parseBoard(fen) {
  const ranks = fen.trim().split(/\s+/)[0].split('/');
  const cells = new Array(60).fill(null);
  ranks.forEach((text, i) => {
    const rank = 11 - i;
    let file = 0;
    for (let k = 0; k < text.length && file < 5; k++) {
      const c = text[k];
      if (c >= '1' && c <= '5') {
        file += Number(c);
      } else if (c === '?') {
        cells[file++ + 5 * rank] = '?';
      } else {
        cells[file++ + 5 * rank] = c + text[++k];
      }
    }
  });
  return cells;
}

// The board field of a position string from 60 cells.
export function boardText(cells) {
  const ranks = [];
  for (let rank = 11; rank >= 0; rank--) {
    let text = '';
    let empty = 0;
    for (let file = 0; file < 5; file++) {
      const c = cells[file + 5 * rank];
      if (!c) {
        empty++;
        continue;
      }
      if (empty) text += empty;
      empty = 0;
      text += c;
    }
    if (empty) text += empty;
    ranks.push(text);
  }
  return ranks.join('/');
}

// The ranks (0-based) a colour deploys on, in the order a deployment string lists them.
export function deploymentRanks(colour) {
  return colour === 'r' ? [5, 4, 3, 2, 1, 0] : [11, 10, 9, 8, 7, 6];
}

// Places a deployment string of `colour` into `cells` (a copy is returned).
export function placeDeployment(cells, text, colour) {
  const out = cells.slice();
  const board = parseBoard(text + '/5/5/5/5/5/5');
  // parseBoard reads the first six ranks as ranks 12..7: map them back.
  deploymentRanks(colour).forEach((rank, i) => {
    for (let f = 0; f < 5; f++) out[f + 5 * rank] = board[f + 5 * (11 - i)];
  });
  return out;
}

// The deployment string of `colour` in `cells`.
export function deploymentText(cells, colour) {
  const full = new Array(60).fill(null);
  deploymentRanks(colour).forEach((rank, i) => {
    for (let f = 0; f < 5; f++) full[f + 5 * (11 - i)] = cells[f + 5 * rank];
  });
  return boardText(full).split('/').slice(0, 6).join('/');
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  // `info`: the server's hello (points and links). `handlers`: onPoint(index),
  // onDrag(from, to), both called with point indices.
  constructor(svg, info, handlers) {
    this.svg = svg;
    this.info = info;
    this.handlers = handlers;
    this.flipped = false; // Blue at the bottom
    this.lang = 'zh';
    this.cursor = 57; // c12 .. moved to the player's side on first use
    this.state = { cells: new Array(60).fill(null) };
    this.kinds = info.points.map((p) => p.kind);
    svg.setAttribute('viewBox', `0 0 ${2 * SIDE + 4 * DX} ${2 * MARGIN + 11 * DY + GAP}`);
    svg.setAttribute('role', 'application');
    svg.setAttribute('aria-label', 'Board: arrow keys move the cursor, Enter or Space selects and plays, Escape cancels');
    svg.setAttribute('tabindex', '0');
    this.layers = {};
    for (const name of ['grid', 'marks', 'pieces', 'targets', 'beliefs', 'arrows', 'effects', 'cursor']) {
      this.layers[name] = el('g', { class: name }, svg);
    }
    this.drawGrid();
    this.listen();
  }

  // Where point `i` is drawn.
  xy(i) {
    let file = i % 5;
    let rank = Math.floor(i / 5);
    if (this.flipped) {
      file = 4 - file;
      rank = 11 - rank;
    }
    const y = MARGIN + (11 - rank) * DY + (rank <= 5 ? GAP : 0);
    return [SIDE + file * DX, y];
  }

  drawGrid() {
    const g = this.layers.grid;
    g.replaceChildren();
    const w = 2 * SIDE + 4 * DX;
    const h = 2 * MARGIN + 11 * DY + GAP;
    el('rect', { x: 0, y: 0, width: w, height: h, class: 'wood', rx: 10 }, g);
    const ya = this.xy(30)[1];
    const yb = this.xy(25)[1];
    const top = Math.min(ya, yb) + TILE_H / 2 + 4;
    el('rect', { x: SIDE - 40, y: top, width: 4 * DX + 80, height: Math.abs(yb - ya) - TILE_H - 8, class: 'front' }, g);
    for (const link of this.info.links) {
      const [x1, y1] = this.xy(pointIndex(link.a));
      const [x2, y2] = this.xy(pointIndex(link.b));
      if (link.rail) {
        el('line', { x1, y1, x2, y2, class: 'rail' }, g);
        el('line', { x1, y1, x2, y2, class: 'rail-ties' }, g);
      } else {
        el('line', { x1, y1, x2, y2, class: 'road' }, g);
      }
    }
    // The mountains between b6/b7 and d6/d7 block the way.
    for (const file of [1, 3]) {
      const [x, y1] = this.xy(file + 25);
      const [, y2] = this.xy(file + 30);
      const y = (y1 + y2) / 2;
      el('path', { d: `M${x - 22} ${y + 10} L${x - 8} ${y - 10} L${x} ${y} L${x + 8} ${y - 12} L${x + 22} ${y + 10} Z`, class: 'mountain' }, g);
    }
    this.info.points.forEach((p, i) => {
      const [x, y] = this.xy(i);
      const spot = { 'data-spot': p.name };
      if (p.kind === 'camp') el('circle', { cx: x, cy: y, r: 22, class: 'camp', ...spot }, g);
      else if (p.kind === 'hq') el('rect', { x: x - 30, y: y - 19, width: 60, height: 38, rx: 14, class: 'hq', ...spot }, g);
      else el('rect', { x: x - 24, y: y - 12, width: 48, height: 24, rx: 3, class: 'post', ...spot }, g);
    });
    // Coordinates on the edges.
    for (let f = 0; f < 5; f++) {
      const [x] = this.xy(f);
      for (const y of [16, h - 8]) {
        el('text', { x, y, class: 'coord' }, g).textContent = FILES[f];
      }
    }
    for (let r = 0; r < 12; r++) {
      const [, y] = this.xy(5 * r);
      for (const x of [14, w - 14]) {
        el('text', { x, y: y + 4, class: 'coord' }, g).textContent = String(r + 1);
      }
    }
    this.w = w;
    this.h = h;
  }

  setFlipped(flipped) {
    if (flipped !== this.flipped) {
      this.flipped = flipped;
      this.drawGrid();
      this.render(this.state);
    }
  }

  setLang(lang) {
    this.lang = lang;
    this.render(this.state);
  }

  // state: { cells, selected, targets: Map(index → 'move'|'attack'),
  // actable: Set(index), last: [indices], arrows: [{from, to, kind, weight}],
  // beliefs: Map(index → [[kind, p]...]) or null, hidden: Set(index) }
  render(state) {
    this.state = state;
    const { marks, pieces, targets, beliefs, arrows } = this.layers;
    marks.replaceChildren();
    targets.replaceChildren();
    pieces.replaceChildren();
    beliefs.replaceChildren();
    arrows.replaceChildren();
    for (const i of state.last ?? []) {
      const [x, y] = this.xy(i);
      el('rect', { x: x - TILE_W / 2 - 4, y: y - TILE_H / 2 - 4, width: TILE_W + 8, height: TILE_H + 8, rx: 8, class: 'last' }, marks);
    }
    state.cells.forEach((c, i) => {
      if (!c) return;
      const [x, y] = this.xy(i);
      const colour = c === '?' ? 'down' : c[0] === 'r' ? 'red' : 'blue';
      const kind = c === '?' ? '?' : c[1];
      const classes = ['piece', colour];
      if (state.actable?.has(i)) classes.push('actable');
      if (state.selected === i) classes.push('selected');
      const g = el('g', { class: classes.join(' '), 'data-point': pointName(i), 'data-piece': c }, pieces);
      el('rect', { x: x - TILE_W / 2, y: y - TILE_H / 2, width: TILE_W, height: TILE_H, rx: 6 }, g);
      const label = kind === '?' ? (colour === 'down' ? '' : '?') : kindName(kind, this.lang);
      const t = el('text', { x, y: y + 5, class: this.lang === 'en' ? 'en' : 'zh' }, g);
      t.textContent = label;
      if (kind !== '?' && this.lang === 'zh') {
        el('text', { x: x + TILE_W / 2 - 7, y: y - 6, class: 'rank' }, g).textContent = /\d/.test(kind) ? kind : '';
      }
    });
    for (const [i, how] of state.targets ?? []) {
      const [x, y] = this.xy(i);
      if (how === 'attack') el('rect', { x: x - TILE_W / 2 - 3, y: y - TILE_H / 2 - 3, width: TILE_W + 6, height: TILE_H + 6, rx: 8, class: 'target attack', 'data-target': pointName(i) }, targets);
      else el('circle', { cx: x, cy: y, r: 9, class: 'target move', 'data-target': pointName(i) }, targets);
    }
    if (state.beliefs) {
      for (const [i, kinds] of state.beliefs) {
        if (!kinds.length) continue;
        const [x, y] = this.xy(i);
        const [kind, p] = kinds[0];
        const g = el('g', { class: 'belief', 'data-point': pointName(i) }, beliefs);
        el('rect', { x: x - 32, y: y + 10, width: 64, height: 15, rx: 4 }, g);
        el('text', { x, y: y + 21 }, g).textContent = `${kindName(kind, this.lang)} ${Math.round(p * 100)}%`;
        const title = el('title', {}, g);
        title.textContent = 'The engine thinks: ' + kinds.slice(0, 4).map(([k, q]) => `${kindName(k, this.lang)} ${Math.round(q * 100)}%`).join(', ');
      }
    }
    for (const a of state.arrows ?? []) this.arrow(a);
    this.drawCursor();
  }

  arrow({ from, to, kind, weight, rank }) {
    const [x1, y1] = this.xy(from);
    const cls = `arrow ${kind}` + (rank ? ` alt` : '');
    if (from === to) {
      el('circle', { cx: x1, cy: y1, r: 24, class: cls, 'stroke-opacity': weight }, this.layers.arrows);
      return;
    }
    const [x2, y2] = this.xy(to);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / len;
    const uy = (y2 - y1) / len;
    const ex = x2 - ux * 14;
    const ey = y2 - uy * 14;
    const g = el('g', { class: cls, opacity: weight }, this.layers.arrows);
    el('line', { x1: x1 + ux * 8, y1: y1 + uy * 8, x2: ex, y2: ey }, g);
    const px = -uy * 9;
    const py = ux * 9;
    el('path', { d: `M${x2} ${y2} L${ex - ux * 6 + px} ${ey - uy * 6 + py} L${ex - ux * 6 - px} ${ey - uy * 6 - py} Z` }, g);
  }

  // A short flash on a point: a combat's outcome, a revealed flag.
  flash(i, text, kind) {
    const [x, y] = this.xy(i);
    const g = el('g', { class: `flash ${kind}` }, this.layers.effects);
    el('circle', { cx: x, cy: y, r: 30 }, g);
    el('text', { x, y: y - 22 }, g).textContent = text;
    setTimeout(() => g.remove(), 1400);
  }

  drawCursor() {
    const c = this.layers.cursor;
    c.replaceChildren();
    if (!this.keyboard) return;
    const [x, y] = this.xy(this.cursor);
    el('rect', { x: x - TILE_W / 2 - 6, y: y - TILE_H / 2 - 6, width: TILE_W + 12, height: TILE_H + 12, rx: 10, class: 'kbd-cursor' }, c);
  }

  // The point under a client position, if near enough to one.
  pointAt(clientX, clientY) {
    const m = this.svg.getScreenCTM();
    if (!m) return -1;
    const pt = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < 60; i++) {
      const [x, y] = this.xy(i);
      const d = Math.hypot((x - pt.x) / DX, (y - pt.y) / DY);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return bestD < 0.5 ? best : -1;
  }

  listen() {
    let down = null;
    this.svg.addEventListener('pointerdown', (e) => {
      const i = this.pointAt(e.clientX, e.clientY);
      if (i < 0) return;
      down = { i, x: e.clientX, y: e.clientY, moved: false };
      this.keyboard = false;
      this.drawCursor();
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (down && Math.hypot(e.clientX - down.x, e.clientY - down.y) > 8) down.moved = true;
    });
    this.svg.addEventListener('pointerup', (e) => {
      if (!down) return;
      const to = this.pointAt(e.clientX, e.clientY);
      const start = down;
      down = null;
      if (start.moved && to >= 0 && to !== start.i) this.handlers.onDrag(start.i, to);
      else if (to === start.i) this.handlers.onPoint(start.i);
    });
    this.svg.addEventListener('pointercancel', () => {
      down = null;
    });
    this.svg.addEventListener('keydown', (e) => {
      const step = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
      if (step) {
        e.preventDefault();
        if (!this.keyboard) {
          this.keyboard = true;
        } else {
          const s = this.flipped ? -1 : 1;
          const file = Math.min(4, Math.max(0, (this.cursor % 5) + step[0] * s));
          const rank = Math.min(11, Math.max(0, Math.floor(this.cursor / 5) + step[1] * s));
          this.cursor = file + 5 * rank;
        }
        this.drawCursor();
      } else if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        this.keyboard = true;
        this.handlers.onPoint(this.cursor);
        this.drawCursor();
      } else if (e.key === 'Escape') {
        this.handlers.onPoint(-1);
      }
    });
    this.svg.addEventListener('focus', () => {
      if (!this.keyboard) {
        this.cursor = this.flipped ? 52 : 7;
      }
    });
  }
}
