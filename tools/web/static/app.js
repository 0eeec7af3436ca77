// The page: one WebSocket to the server, which drives the engines and
// referees the game. The page only draws what it is sent and sends what
// the player does; it knows no rules beyond the notation (the legal
// actions come from the engine that works for the player).

import {
  ARMY, Board, KINDS, boardText, deploymentRanks, deploymentText, kindName, parseBoard, placeDeployment, pointIndex, pointName,
} from '/board.js';

const $ = (id) => document.getElementById(id);
const FLIP_START = '?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -';

const ui = {
  mode: 'play', // or 'analyse'
  hello: null,
  board: null,
  game: null,
  deploy: null, // { colour, cells } while deploying
  selected: -1,
  report: [], // the engine's last report: info lines by MultiPV rank
  rootstats: [],
  context: null, // what the report is about: 'game' or 'analysis'
  beliefs: new Map(),
  position: null, // the analysed position (analysis)
  loaded: null, // the loaded game (analysis)
  graph: [],
  step: 0,
  editor: null, // { cells, piece } while setting up a position
  seenPlies: 0,
};

let ws = null;

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
}

function status(text, kind = '') {
  const s = $('status');
  s.textContent = text;
  s.className = kind;
}

function connect() {
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`);
  ws.onmessage = (e) => handle(JSON.parse(e.data));
  ws.onopen = () => status('Connected. Choose a variant and start a new game, or analyse.');
  ws.onclose = () => status('The connection to the server is closed: reload the page to start again.', 'error');
}

// ---------------------------------------------------------------- messages

function handle(msg) {
  switch (msg.type) {
    case 'hello':
      return hello(msg);
    case 'engine':
      $('engine-name').textContent = msg.name;
      return undefined;
    case 'game':
      return gameChanged(msg);
    case 'info':
    case 'rootstat':
      return thinking(msg);
    case 'belief':
      ui.beliefs.set(pointIndex(msg.at), msg.kinds);
      return draw();
    case 'bestmove':
      status(msg.action ? `The engine's best action: ${msg.action}` : 'The engine has no action here.');
      $('a-stop').disabled = true;
      return;
    case 'says':
      $('engine-says').textContent = msg.text;
      return;
    case 'setup':
      if (ui.deploy) {
        ui.deploy.cells = placeDeployment(ui.deploy.cells, msg.setup, ui.deploy.colour);
        $('deploy-error').textContent = '';
        draw();
      }
      return;
    case 'position':
      return positionChanged(msg);
    case 'loaded':
      return loadedGame(msg);
    case 'graph':
      ui.graph[msg.ply] = msg;
      if (ui.loaded && ui.graph.filter(Boolean).length === ui.loaded.positions) status('The evaluation graph is complete: step through the game, or click the graph.');
      return drawGraph();
    case 'record':
      return download(msg.text);
    case 'error':
      if (ui.deploy) $('deploy-error').textContent = msg.message;
      status(msg.message, 'error');
      return;
    default:
      return undefined;
  }
}

function hello(msg) {
  ui.hello = msg;
  ui.board = new Board($('board'), msg, { onPoint, onDrag });
  for (const sel of [$('variant'), $('a-variant')]) {
    sel.replaceChildren(...msg.variants.map((v) => new Option(v, v)));
  }
  $('variant').value = 'flip';
  $('a-variant').value = 'flip';
  rulesControls($('rules'), $('variant'));
  rulesControls($('a-rules'), $('a-variant'));
  seatLabels();
  draw();
}

// The rule settings of a preset, as controls that start at its values.
function rulesControls(box, variantSelect) {
  const build = () => {
    const preset = ui.hello.presets[variantSelect.value];
    box.replaceChildren();
    for (const s of ui.hello.settings) {
      const label = document.createElement('label');
      let input;
      if (s.kind === 'check') {
        input = document.createElement('input');
        input.type = 'checkbox';
        input.checked = preset[s.name] === 'true';
        label.append(input, ' ' + s.name);
      } else if (s.kind === 'combo') {
        input = document.createElement('select');
        input.append(...s.vars.map((v) => new Option(v, v)));
        input.value = preset[s.name];
        label.append(s.name + ' ', input);
      } else {
        input = document.createElement('input');
        input.type = 'number';
        input.min = s.min;
        input.max = s.max;
        input.value = preset[s.name];
        label.append(s.name + ' ', input);
      }
      input.dataset.setting = s.name;
      box.append(label);
    }
  };
  variantSelect.addEventListener('change', build);
  build();
}

// The settings that differ from the preset's.
function rulesOf(box, variant) {
  const preset = ui.hello.presets[variant];
  const out = {};
  for (const input of box.querySelectorAll('[data-setting]')) {
    const v = input.type === 'checkbox' ? String(input.checked) : String(input.value);
    if (v !== preset[input.dataset.setting]) out[input.dataset.setting] = v;
  }
  return out;
}

function limitOf() {
  const n = Number($('limit-value').value) || 1;
  return $('limit-kind').value === 'nodes' ? { nodes: n } : { movetime: n };
}

function seatLabels() {
  const flip = $('variant').value === 'flip';
  $('seat-first-label').textContent = flip ? 'You move first' : 'Red (moves first)';
  $('seat-second-label').textContent = flip ? 'The engine moves first' : 'Blue';
}

// ---------------------------------------------------------------- the game

function gameChanged(g) {
  const previous = ui.game;
  const newGame = !previous || previous.id !== g.id;
  ui.game = g;
  ui.selected = -1;
  if (newGame) {
    ui.seenPlies = 0;
  }
  if (newGame || g.turn === 'engine') {
    // A new search: its lines replace the last ones.
    clearThinking();
    ui.beliefs.clear();
  }
  if (g.phase === 'deploy') {
    const colour = g.you === 'blue' ? 'b' : 'r';
    if (!ui.deploy || newGame) {
      ui.deploy = { colour, cells: placeDeployment(new Array(60).fill(null), g.setup, colour) };
    }
    $('deploy-error').textContent = '';
  } else {
    ui.deploy = null;
  }
  ui.board.setFlipped(g.you === 'blue' || (g.phase === 'deploy' && !g.you_first));
  $('deploy-panel').hidden = g.phase !== 'deploy';
  $('takeback').disabled = !g.can_takeback;
  $('resign').disabled = g.phase !== 'play';
  $('download').disabled = g.phase !== 'over';
  $('analyse-game').disabled = g.phase !== 'over';
  $('belief-box').hidden = !(g.variant === 'classic' || g.variant === 'ccgc' || g.variant === 'cs4500');
  $('engine-name').textContent = g.engine;
  if (ui.mode !== 'play') return;
  moveList(g.moves);
  animate(g.moves);
  if (g.result) {
    status(`Game over: ${g.result.score} (${g.result.termination}): ${g.result.detail}`, 'over');
  } else if (g.phase === 'deploy') {
    status('Deploy your pieces: drag or click two pieces to swap them, then Ready.');
  } else if (g.turn === 'you') {
    status(g.moves.length ? `Your move (${g.legal.length} legal actions).` : 'Your move: flip a piece or move.');
  } else {
    status('The engine thinks…');
  }
  document.body.dataset.phase = g.phase;
  document.body.dataset.turn = g.turn ?? '';
  draw();
}

function moveList(moves) {
  const ol = $('move-list');
  ol.replaceChildren(
    ...moves.map((m) => {
      const li = document.createElement('li');
      li.className = `${{ r: 'red', b: 'blue' }[m.colour] ?? ''}${m.yours ? ' yours' : ''}`;
      li.textContent = m.tokens.join(' ');
      return li;
    }),
  );
  ol.scrollTop = ol.scrollHeight;
}

// Flashes the outcome of the newest attacks and the flags they revealed.
function animate(moves) {
  const fresh = moves.slice(Math.min(ui.seenPlies, moves.length));
  ui.seenPlies = moves.length;
  if (fresh.length > 4) return; // a take-back or a reload: nothing to animate
  for (const m of fresh) {
    for (const t of m.tokens) {
      const attack = /^([a-e]\d+)x([a-e]\d+)([+=-])/.exec(t);
      if (attack) {
        const words = { '+': 'wins', '-': 'loses', '=': 'both fall' };
        ui.board.flash(pointIndex(attack[2]), `${attack[1]} ${words[attack[3]]}`, 'combat');
      }
      const reveal = /^([a-e]\d+)=([rb])F$/.exec(t);
      if (reveal && ui.game.variant !== 'flip') ui.board.flash(pointIndex(reveal[1]), kindName('F', ui.board.lang) + '!', 'reveal');
    }
  }
}

// The legal actions as flips and moves by origin.
function legalMap(legal) {
  const flips = new Set();
  const moves = new Map();
  for (const a of legal ?? []) {
    const m = /^([a-e]\d+)([-x])([a-e]\d+)$/.exec(a);
    if (!m) {
      flips.add(pointIndex(a));
      continue;
    }
    const from = pointIndex(m[1]);
    if (!moves.has(from)) moves.set(from, new Map());
    moves.get(from).set(pointIndex(m[3]), m[2] === 'x' ? 'attack' : 'move');
  }
  return { flips, moves };
}

function actionText(from, to, how) {
  return `${pointName(from)}${how === 'attack' ? 'x' : '-'}${pointName(to)}`;
}

// What the board shows now.
function boardState() {
  const state = { cells: parseBoard(FLIP_START), targets: new Map(), actable: new Set(), last: [], arrows: [], beliefs: null };
  let legal = null;
  if (ui.mode === 'play') {
    const g = ui.game;
    if (ui.deploy) {
      state.cells = ui.deploy.cells.slice();
      const enemy = ui.deploy.colour === 'r' ? 'b' : 'r';
      for (const rank of deploymentRanks(enemy)) {
        for (let f = 0; f < 5; f++) {
          const i = f + 5 * rank;
          if (ui.hello.points[i].kind !== 'camp') state.cells[i] = enemy + '?';
        }
      }
      for (const rank of deploymentRanks(ui.deploy.colour)) {
        for (let f = 0; f < 5; f++) if (state.cells[f + 5 * rank]) state.actable.add(f + 5 * rank);
      }
      state.selected = ui.selected;
      return state;
    }
    if (!g) return state;
    state.cells = parseBoard(g.fen);
    if (g.turn === 'you') legal = g.legal;
    state.last = lastMove(g.moves);
    if (ui.context === 'game') state.arrows = arrows(ui.report);
    if ($('belief').checked && ui.beliefs.size) {
      // Only where the player's pieces still stand.
      const mine = g.you === 'blue' ? 'b' : 'r';
      state.beliefs = new Map([...ui.beliefs].filter(([i]) => state.cells[i]?.[0] === mine));
    }
  } else if (ui.editor) {
    state.cells = ui.editor.cells.slice();
    return state;
  } else if (ui.loaded) {
    const plies = ui.loaded.plies;
    state.cells = parseBoard(ui.step === 0 ? ui.loaded.start : plies[ui.step - 1].fen);
    if (ui.step > 0) state.last = lastMove([plies[ui.step - 1]]);
    if (ui.context === 'analysis') state.arrows = arrows(ui.report);
  } else if (ui.position) {
    state.cells = parseBoard(ui.position.fen);
    legal = ui.position.legal;
    if (ui.context === 'analysis') state.arrows = arrows(ui.report);
  }
  if (legal) {
    const { flips, moves } = legalMap(legal);
    for (const i of flips) state.actable.add(i);
    for (const i of moves.keys()) state.actable.add(i);
    if (ui.selected >= 0 && moves.has(ui.selected)) {
      state.selected = ui.selected;
      state.targets = moves.get(ui.selected);
    }
  }
  return state;
}

function lastMove(moves) {
  const m = moves[moves.length - 1];
  if (!m) return [];
  const t = /^([a-e]\d+)(?:[-x]([a-e]\d+))?/.exec(m.tokens[0]);
  return t ? [t[1], t[2]].filter(Boolean).map(pointIndex) : [];
}

// The principal variation of the best line, fading, and the first action of the others.
function arrows(report) {
  const out = [];
  const add = (action, weight, kind, rank) => {
    const m = /^([a-e]\d+)(?:[-x]([a-e]\d+))?$/.exec(action);
    if (!m) return;
    const from = pointIndex(m[1]);
    out.push({ from, to: m[2] ? pointIndex(m[2]) : from, weight, kind, rank });
  };
  report.forEach((line, rank) => {
    if (!line) return;
    if (rank === 0) line.pv.slice(0, 4).forEach((a, k) => add(a, [1, 0.7, 0.5, 0.35][k], k % 2 ? 'reply' : 'best', 0));
    else if (line.pv[0]) add(line.pv[0], 0.55, 'other', rank);
  });
  return out;
}

function draw() {
  if (!ui.board) return;
  ui.board.render(boardState());
}

function legalNow() {
  if (ui.mode === 'play') return ui.game?.turn === 'you' ? ui.game.legal : null;
  if (ui.position && !ui.loaded && !ui.editor) return ui.position.legal;
  return null;
}

function onPoint(i) {
  if (ui.mode === 'analyse' && ui.editor) return editPoint(i);
  if (ui.deploy) return deployPoint(i);
  const legal = legalNow();
  if (i < 0 || !legal) {
    ui.selected = -1;
    return draw();
  }
  const { flips, moves } = legalMap(legal);
  const how = ui.selected >= 0 ? moves.get(ui.selected)?.get(i) : undefined;
  if (how) return act(actionText(ui.selected, i, how));
  if (flips.has(i)) return act(pointName(i));
  ui.selected = moves.has(i) && ui.selected !== i ? i : -1;
  draw();
}

function onDrag(from, to) {
  if (ui.deploy) return swap(from, to);
  const legal = legalNow();
  if (!legal) return;
  const how = legalMap(legal).moves.get(from)?.get(to);
  if (how) act(actionText(from, to, how));
}

async function act(action) {
  ui.selected = -1;
  if (ui.mode === 'play') {
    send({ type: 'play', action });
    status('…');
    return;
  }
  const token = await completeToken(action);
  if (!token) return draw();
  const args = $('a-position').value.trim();
  $('a-position').value = /\bmoves\b/.test(args) ? `${args} ${token}` : `${args} moves ${token}`;
  analyse();
}

// An analysed action becomes a history token: a flip needs what it shows,
// an attack on a piece of unknown kind its outcome.
async function completeToken(action) {
  const cells = parseBoard(ui.position.fen);
  const m = /^([a-e]\d+)(?:([-x])([a-e]\d+))?$/.exec(action);
  if (!m[2]) {
    const pool = poolOf(ui.position.fen);
    const choices = [];
    for (const c of 'rb') for (const k of KINDS) if (pool[c + k] > 0) choices.push([c + k, `${c === 'r' ? 'Red' : 'Blue'} ${kindName(k, ui.board.lang)}`]);
    const piece = await pick(`What does ${action} show?`, choices);
    return piece && `${action}=${piece}`;
  }
  if (m[2] === '-') return action;
  const known = (c) => c && c !== '?' && c[1] !== '?';
  if (known(cells[pointIndex(m[1])]) && known(cells[pointIndex(m[3])])) return action;
  const outcome = await pick(`The outcome of ${action}?`, [['+', 'the attacker wins'], ['-', 'the attacker loses'], ['=', 'both are removed']]);
  return outcome && action + outcome;
}

// What is still face down, by piece: the armies less the pieces face up and removed.
function poolOf(fen) {
  const pool = {};
  for (const c of 'rb') for (const k of KINDS) pool[c + k] = ARMY[k];
  for (const cell of parseBoard(fen)) if (cell && cell !== '?') pool[cell]--;
  const removed = fen.trim().split(/\s+/)[4] ?? '-';
  for (const m of removed.matchAll(/[rb][1-9BMF]/g)) pool[m[0]]--;
  return pool;
}

function pick(question, choices) {
  const box = $('picker');
  return new Promise((resolve) => {
    box.replaceChildren();
    const p = document.createElement('p');
    p.textContent = question;
    box.append(p);
    for (const [value, label] of [...choices, [null, 'Cancel']]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.dataset.value = value ?? '';
      b.onclick = () => {
        box.hidden = true;
        resolve(value);
      };
      box.append(b);
    }
    box.hidden = false;
    box.querySelector('button').focus();
  });
}

// ---------------------------------------------------------------- deployment

function inHalf(i, colour) {
  return deploymentRanks(colour).includes(Math.floor(i / 5)) && ui.hello.points[i].kind !== 'camp';
}

function deployPoint(i) {
  if (i < 0 || !inHalf(i, ui.deploy.colour)) {
    ui.selected = -1;
    return draw();
  }
  if (ui.selected >= 0 && ui.selected !== i) {
    const from = ui.selected;
    ui.selected = -1;
    return swap(from, i);
  }
  ui.selected = ui.selected === i ? -1 : i;
  draw();
}

function swap(a, b) {
  const colour = ui.deploy.colour;
  if (!inHalf(a, colour) || !inHalf(b, colour)) return;
  const cells = ui.deploy.cells;
  [cells[a], cells[b]] = [cells[b], cells[a]];
  $('deploy-error').textContent = '';
  draw();
}

// ---------------------------------------------------------------- thinking

function thinking(msg) {
  const mine = ui.mode === 'play' ? msg.context === 'game' : msg.context === 'analysis';
  if (!mine) return;
  ui.context = msg.context;
  if (msg.type === 'rootstat') {
    if (ui.rootstatsDone) {
      ui.rootstats = [];
      ui.rootstatsDone = false;
    }
    ui.rootstats.push(msg);
    return;
  }
  if (msg.multipv === 1) {
    ui.report = [];
    ui.rootstatsDone = true;
  }
  ui.report[msg.multipv - 1] = msg;
  showThinking();
  draw();
}

function mover() {
  // Who the engine's scores are for: the side to move.
  if (ui.mode === 'play') {
    const g = ui.game;
    if (!g?.you) return null;
    return g.you === 'red' ? 'blue' : 'red';
  }
  if (ui.loaded) return ui.loaded.moverAt[ui.step];
  return ui.position?.side ?? null;
}

// Forgets the engine's last report (a new search, another position or mode).
function clearThinking() {
  ui.report = [];
  ui.rootstats = [];
  ui.context = null;
  $('engine-stats').textContent = '';
  $('pv-lines').replaceChildren();
  for (const id of ['wdl-w', 'wdl-d', 'wdl-l']) $(id).style.width = '0';
  $('wdl-text').textContent = '';
}

function showThinking() {
  const best = ui.report[0];
  if (!best) return;
  $('engine-stats').textContent = `depth ${best.depth ?? '-'}/${best.seldepth ?? '-'} · ${best.nodes ?? 0} nodes · ${best.nps ?? 0} nodes/s · ${best.time ?? 0} ms`;
  // The bar: in a game from the player's view, in analysis from Red's.
  let [w, d, l] = best.wdl ?? [500, 0, 500];
  let labels;
  if (ui.mode === 'play') {
    [w, l] = [l, w];
    labels = ['you', 'engine'];
  } else {
    if (mover() === 'blue') [w, l] = [l, w];
    labels = ['Red', 'Blue'];
  }
  $('wdl-w').style.width = `${w / 10}%`;
  $('wdl-d').style.width = `${d / 10}%`;
  $('wdl-l').style.width = `${l / 10}%`;
  $('wdl-text').textContent = `${labels[0]} ${(w / 10).toFixed(1)}% · draw ${(d / 10).toFixed(1)}% · ${labels[1]} ${(l / 10).toFixed(1)}%`;
  const rows = ui.report.filter(Boolean).map((line) => {
    const tr = document.createElement('tr');
    const [lw, ld] = line.wdl ?? [500, 0];
    for (const text of [line.multipv, line.cp ?? '', `${((lw + ld / 2) / 10).toFixed(1)}%`, line.depth ?? '', line.pv.slice(0, 10).join(' ')]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  });
  $('pv-lines').replaceChildren(...rows);
}

// ---------------------------------------------------------------- analysis

function analyse() {
  ui.editor = null;
  $('palette').hidden = true;
  ui.loaded = null;
  $('steps').hidden = true;
  clearThinking();
  send({
    type: 'analyse',
    variant: $('a-variant').value,
    rules: rulesOf($('a-rules'), $('a-variant').value),
    position: $('a-position').value.trim() || 'startpos',
    multipv: Number($('a-multipv').value),
  });
  $('a-stop').disabled = false;
  status('The engine analyses…');
}

function positionChanged(p) {
  ui.position = p;
  ui.loaded = null;
  ui.selected = -1;
  $('a-position').value = p.position;
  const history = p.position.split(/\s+moves\s+/)[1];
  moveList(history ? history.split(/\s+/).map((t) => ({ colour: '', tokens: [t], yours: false })) : []);
  if (p.over) {
    status(`Game over here: ${p.over}`, 'over');
    $('a-stop').disabled = true;
  }
  draw();
}

function loadedGame(msg) {
  ui.loaded = msg;
  ui.position = null;
  ui.editor = null;
  ui.graph = [];
  ui.step = 0;
  // Who moves at each position: the mover of the next ply (flip before its first: the first player).
  msg.moverAt = msg.plies.map((p) => (p.colour === 'r' ? 'red' : 'blue'));
  $('a-variant').value = msg.variant;
  $('a-variant').dispatchEvent(new Event('change'));
  $('steps').hidden = false;
  $('a-stop').disabled = true;
  moveList(msg.plies.map((p) => ({ colour: p.colour, tokens: p.tokens, yours: false })));
  status(`Loaded: Red ${msg.names[0]}, Blue ${msg.names[1]}; ${msg.result}. The engine draws the graph…`);
  stepTo(0, false);
}

let gotoTimer = null;

function stepTo(k, analyseIt = true) {
  if (!ui.loaded) return;
  ui.step = Math.max(0, Math.min(ui.loaded.plies.length, k));
  clearThinking();
  const p = ui.loaded.plies;
  $('step-label').textContent = ui.step === 0 ? 'start' : `ply ${ui.step}: ${p[ui.step - 1].colour} ${p[ui.step - 1].tokens.join(' ')}`;
  const ol = $('move-list');
  for (let i = 0; i < ol.children.length; i++) ol.children[i].classList.toggle('current', i === ui.step - 1);
  const current = ol.children[ui.step - 1];
  ol.scrollTop = current ? current.offsetTop - ol.clientHeight / 2 : 0;
  drawGraph();
  draw();
  clearTimeout(gotoTimer);
  if (analyseIt && ui.step < ui.loaded.positions) {
    gotoTimer = setTimeout(() => {
      send({ type: 'goto', ply: ui.step, multipv: Number($('a-multipv').value) });
      $('a-stop').disabled = false;
    }, 250);
  }
}

function drawGraph() {
  const svg = $('graph');
  svg.replaceChildren();
  if (!ui.loaded) return;
  const n = Math.max(1, ui.loaded.plies.length);
  const W = 400;
  const H = 120;
  const ns = 'http://www.w3.org/2000/svg';
  const add = (name, attrs) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.append(e);
    return e;
  };
  add('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-bg' });
  add('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' });
  const pts = ui.graph.map((g, ply) => g && `${(ply / n) * W},${H - (g.red / 1000) * H}`).filter(Boolean);
  add('polyline', { points: pts.join(' '), class: 'graph-line' });
  add('line', { x1: (ui.step / n) * W, y1: 0, x2: (ui.step / n) * W, y2: H, class: 'graph-now' });
  const g = ui.graph[ui.step];
  const done = ui.graph.filter(Boolean).length;
  const score = g ? `Red's expected score at ply ${ui.step}: ${(g.red / 10).toFixed(1)}% (${g.cp > 0 ? '+' : ''}${g.cp} cp from Red's view)` : 'no evaluation at this ply (the game is over)';
  $('graph-label').textContent = `${score}; ${done} of ${ui.loaded.positions} positions evaluated.`;
}

// ---------------------------------------------------------------- position editor

function startEditor() {
  const cells = ui.position ? parseBoard(ui.position.fen) : ui.loaded ? parseBoard(ui.step ? ui.loaded.plies[ui.step - 1].fen : ui.loaded.start) : new Array(60).fill(null);
  ui.editor = { cells, piece: 'r9' };
  const pal = $('palette');
  pal.replaceChildren();
  for (const p of [...['r', 'b'].flatMap((c) => [...KINDS.map((k) => c + k), c + '?']), '?', '']) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.piece = p;
    b.className = p === '' ? 'erase' : p === '?' ? 'down' : p[0] === 'r' ? 'red' : 'blue';
    b.textContent = p === '' ? 'empty' : p === '?' ? 'face down' : kindName(p[1], ui.board.lang);
    b.setAttribute('aria-pressed', String(p === ui.editor.piece));
    b.onclick = () => {
      ui.editor.piece = p;
      for (const x of pal.children) x.setAttribute('aria-pressed', String(x === b));
    };
    pal.append(b);
  }
  pal.hidden = false;
  draw();
}

function editPoint(i) {
  if (i < 0) return;
  ui.editor.cells[i] = ui.editor.piece || null;
  $('a-position').value = editorPosition();
  draw();
}

// A position string for the editor's board: the removed pieces are what
// each army is missing (unknown pieces count as any).
function editorPosition() {
  const cells = ui.editor.cells;
  const side = $('a-side').value;
  const removed = [];
  for (const c of 'rb') {
    const named = {};
    let unknown = 0;
    for (const cell of cells) {
      if (cell?.[0] !== c) continue;
      if (cell[1] === '?') unknown++;
      else named[cell[1]] = (named[cell[1]] ?? 0) + 1;
    }
    const missing = [];
    // In the order the engine prints them: 1 to 9, B, M, F.
    for (const k of [...KINDS.slice(0, 9).reverse(), 'B', 'M', 'F']) for (let n = named[k] ?? 0; n < ARMY[k]; n++) missing.push(c + k);
    if (unknown === 0) removed.push(...missing);
    else for (let n = 0; n < missing.length - unknown; n++) removed.push(c + '?');
  }
  const faceDown = cells.filter((c) => c === '?').length;
  const removedText = faceDown ? '-' : removed.join('') || '-';
  return `fen ${boardText(cells)} ${side} 0 ${side === '-' ? 0 : 1} ${removedText}`;
}

// ---------------------------------------------------------------- records

function download(text) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `luzhanqi-game-${ui.game?.id ?? 0}.ljr`;
  document.body.append(a);
  a.click();
  a.remove();
}

// ---------------------------------------------------------------- wiring

function setMode(mode) {
  ui.mode = mode;
  ui.selected = -1;
  clearThinking();
  $('tab-play').setAttribute('aria-selected', String(mode === 'play'));
  $('tab-analyse').setAttribute('aria-selected', String(mode === 'analyse'));
  $('play-panel').hidden = mode !== 'play';
  $('analyse-panel').hidden = mode !== 'analyse';
  document.body.dataset.mode = mode;
  if (mode === 'play') {
    moveList(ui.game?.moves ?? []);
    if (ui.game) ui.board.setFlipped(ui.game.you === 'blue');
  } else {
    moveList(ui.loaded ? ui.loaded.plies.map((p) => ({ colour: p.colour, tokens: p.tokens, yours: false })) : []);
    ui.board.setFlipped($('a-flip').checked);
  }
  draw();
}

function wire() {
  $('tab-play').onclick = () => setMode('play');
  $('tab-analyse').onclick = () => setMode('analyse');
  $('lang').onchange = () => {
    ui.board?.setLang($('lang').value);
  };
  $('variant').addEventListener('change', seatLabels);
  $('new-game').onclick = () => {
    if (ui.game?.phase === 'play' && !confirm('Abandon the game in progress?')) return;
    ui.deploy = null;
    send({
      type: 'new_game',
      variant: $('variant').value,
      rules: rulesOf($('rules'), $('variant').value),
      seat: $('seat-second').checked ? 'second' : 'first',
      limit: limitOf(),
      multipv: Number($('multipv').value),
    });
    status('Starting the engines…');
  };
  const settings = () => send({ type: 'settings', limit: limitOf(), multipv: Number($('multipv').value) });
  for (const id of ['limit-kind', 'limit-value', 'multipv']) $(id).addEventListener('change', () => ui.game && settings());
  $('takeback').onclick = () => send({ type: 'takeback' });
  $('resign').onclick = () => confirm('Resign this game?') && send({ type: 'resign' });
  $('download').onclick = () => send({ type: 'record' });
  $('analyse-game').onclick = () => {
    setMode('analyse');
    send({ type: 'analyse_game', limit: { nodes: Number($('a-graph-nodes').value) || 300 } });
  };
  $('belief').onchange = draw;
  $('random-setup').onclick = () => send({ type: 'random_setup' });
  $('ready').onclick = () => ui.deploy && send({ type: 'deploy', setup: deploymentText(ui.deploy.cells, ui.deploy.colour) });
  $('move-form').onsubmit = (e) => {
    e.preventDefault();
    const text = $('move-input').value.trim();
    if (!text) return;
    $('move-input').value = '';
    if (ui.mode === 'play') send({ type: 'play', action: text });
    else if (ui.position) {
      const args = $('a-position').value.trim();
      $('a-position').value = /\bmoves\b/.test(args) ? `${args} ${text}` : `${args} moves ${text}`;
      analyse();
    }
  };
  $('a-analyse').onclick = analyse;
  $('a-stop').onclick = () => {
    send({ type: 'stop' });
    $('a-stop').disabled = true;
  };
  $('a-setup').onclick = () => (ui.editor ? analyse() : startEditor());
  $('a-side').onchange = () => ui.editor && ($('a-position').value = editorPosition());
  $('a-flip').onchange = () => ui.board.setFlipped($('a-flip').checked);
  $('a-load').onchange = async () => {
    const file = $('a-load').files[0];
    if (!file) return;
    send({ type: 'load', text: await file.text(), limit: { nodes: Number($('a-graph-nodes').value) || 300 } });
    $('a-load').value = '';
  };
  $('step-first').onclick = () => stepTo(0);
  $('step-prev').onclick = () => stepTo(ui.step - 1);
  $('step-next').onclick = () => stepTo(ui.step + 1);
  $('step-last').onclick = () => stepTo(Infinity);
  $('a-from-here').onclick = () => {
    if (!ui.loaded) return;
    const k = Math.min(ui.step, ui.loaded.views.length - 1);
    $('a-position').value = ui.loaded.views[k];
    analyse();
  };
  $('graph').addEventListener('click', (e) => {
    if (!ui.loaded) return;
    const r = $('graph').getBoundingClientRect();
    stepTo(Math.round(((e.clientX - r.left) / r.width) * Math.max(1, ui.loaded.plies.length)));
  });
  document.addEventListener('keydown', (e) => {
    const typing = ['INPUT', 'TEXTAREA', 'SELECT'].includes(document.activeElement?.tagName);
    if (typing || document.activeElement === $('board') || !ui.loaded || ui.mode !== 'analyse') return;
    if (e.key === 'ArrowLeft') stepTo(ui.step - 1);
    if (e.key === 'ArrowRight') stepTo(ui.step + 1);
  });
}

wire();
setMode('play');
connect();
