// The web board in headless Chromium (Debian's chromium), driven by
// playwright-core: a whole flip game played by clicking and dragging
// against the engine at 200 nodes a move, its move list checked against
// the server's record; a classic deployment made in the editor (an illegal
// one refused with the engine's reason), the first moves of the game with
// the belief overlay on, and every WebSocket frame of that game checked
// for a hidden identity of the engine's pieces. Screenshots go to
// tools/web/test-output/ (or $SCREENSHOTS).
//
// Run by tools/web/browser-test.sh, which builds the server first; it
// needs WEB_BIN (the server binary) and CHROMIUM (default /usr/bin/chromium).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const SHOTS = process.env.SCREENSHOTS ?? join(here, '..', 'test-output');
const WEB_BIN = process.env.WEB_BIN;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const NODES = 200;

let server;
let address;
let context;
let profile;

// A small seeded generator, so that a failure replays.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

before(async () => {
  assert.ok(WEB_BIN, 'set WEB_BIN to the web server binary (tools/web/browser-test.sh does)');
  mkdirSync(SHOTS, { recursive: true });
  server = spawn(WEB_BIN, ['--listen', '127.0.0.1:0', '--seed', '11'], { stdio: ['ignore', 'pipe', 'inherit'] });
  address = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /web board: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited (${code}) before printing its address`)));
  });
  profile = mkdtempSync(join(tmpdir(), 'luzhanqi-chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1100, height: 980 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

// The page with every WebSocket frame it receives.
async function openPage() {
  const page = await context.newPage();
  const frames = [];
  const errors = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(JSON.parse(f.payload))));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  await page.goto(address);
  await page.waitForSelector('#board g.piece');
  return { page, frames, errors };
}

// A click where an element is drawn (a destination mark lies over the
// piece it attacks, and lets the click through to the board).
async function clickAt(page, selector) {
  const box = await page.locator(selector).first().boundingBox();
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const plies = (page) => page.locator('#move-list li').count();

// Waits until it is the player's turn or the game is over.
async function playersTurnOrOver(page) {
  await page.waitForFunction(() => document.body.dataset.turn === 'you' || document.body.dataset.phase === 'over', null, { timeout: 30_000 });
  return page.evaluate(() => document.body.dataset.phase);
}

// One action of the player, chosen among the highlighted pieces and
// destinations: a click on a face-down piece flips it; otherwise a piece
// is clicked (or dragged) and one of its destinations taken.
async function playOne(page, random, useDrag) {
  const before = await plies(page);
  const actable = await page.$$eval('#board g.piece.actable', (gs) => gs.map((g) => [g.dataset.point, g.dataset.piece]));
  assert.ok(actable.length > 0, 'a player to move has a highlighted piece');
  const flips = actable.filter(([, piece]) => piece === '?');
  const movers = actable.filter(([, piece]) => piece !== '?');
  if (flips.length && (!movers.length || random() < 0.5)) {
    const [point] = flips[Math.floor(random() * flips.length)];
    await page.click(`#board g.piece[data-point="${point}"]`);
  } else {
    const [point] = movers[Math.floor(random() * movers.length)];
    await page.click(`#board g.piece[data-point="${point}"]`);
    const targets = await page.$$eval('#board [data-target]', (ts) => ts.map((t) => [t.dataset.target, t.classList.contains('attack')]));
    assert.ok(targets.length > 0, `${point} shows its destinations`);
    const attacks = targets.filter(([, attack]) => attack);
    const [to] = attacks.length && random() < 0.7 ? attacks[Math.floor(random() * attacks.length)] : targets[Math.floor(random() * targets.length)];
    if (useDrag) {
      const from = await page.locator(`#board g.piece[data-point="${point}"]`).boundingBox();
      const dest = await page.locator(`#board [data-target="${to}"]`).boundingBox();
      await page.click(`#board g.piece[data-point="${point}"]`); // unselect, then drag
      await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
      await page.mouse.down();
      await page.mouse.move(dest.x + dest.width / 2, dest.y + dest.height / 2, { steps: 6 });
      await page.mouse.up();
    } else {
      await clickAt(page, `#board [data-target="${to}"]`);
    }
  }
  await page.waitForFunction((n) => document.querySelectorAll('#move-list li').length > n, before, { timeout: 30_000 });
}

// The plies of a record: each ply's token and reveals.
function recordPlies(text) {
  return text
    .split('\n')
    .map((l) => /^\d+ [rb] (\S+) \d+((?: \S+)*)$/.exec(l.trim()))
    .filter(Boolean)
    .map((m) => [m[1], ...m[2].trim().split(/\s+/).filter(Boolean)].join(' '));
}

async function downloadRecord(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
  return readFileSync(await download.path(), 'utf8');
}

test('a whole flip game by clicking, its move list the server record', async () => {
  const { page, errors } = await openPage();
  await page.screenshot({ path: join(SHOTS, 'start.png') });
  await page.selectOption('#variant', 'flip');
  await page.check('#seat-first');
  await page.selectOption('#limit-kind', 'nodes');
  await page.fill('#limit-value', String(NODES));
  await page.click('#new-game');
  // The first action with the keyboard: the cursor starts on c2, Enter flips it.
  assert.equal(await playersTurnOrOver(page), 'play');
  await page.focus('#board');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 2);
  assert.match(await page.textContent('#move-list li'), /^c2=[rb]/);
  // The second typed: a face-down piece's point flips it.
  assert.equal(await playersTurnOrOver(page), 'play');
  const down = await page.$eval('#board g.piece.actable[data-piece="?"]', (g) => g.dataset.point);
  await page.fill('#move-input', down);
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelectorAll('#move-list li').length >= 4);
  assert.match((await page.$$eval('#move-list li', (lis) => lis[2].textContent)), new RegExp(`^${down}=[rb]`));
  const random = rng(5);
  let moves = 2;
  let middle = false;
  while ((await playersTurnOrOver(page)) !== 'over') {
    await playOne(page, random, moves % 4 === 3);
    moves++;
    if (!middle && (await plies(page)) >= 40) {
      await playersTurnOrOver(page);
      await page.screenshot({ path: join(SHOTS, 'middle.png') });
      middle = true;
    }
    assert.ok(moves < 600, 'the game ends');
  }
  await page.screenshot({ path: join(SHOTS, 'end.png') });
  const status = await page.textContent('#status');
  assert.match(status, /^Game over: (1-0|0-1|1\/2-1\/2) \((flag|noaction|quietlimit|maxplies)\)/);
  const list = await page.$$eval('#move-list li', (lis) => lis.map((li) => li.textContent));
  const record = await downloadRecord(page);
  assert.match(record, /\[Variant "flip"\]/);
  assert.match(record, /\[Red "(you|luzhanqi[^"]*)"\]/);
  assert.deepEqual(list, recordPlies(record), 'the move list is the record, ply for ply');
  const termination = /\[Termination "(\w+)"\]/.exec(record)[1];
  assert.ok(status.includes(`(${termination})`), `${status} / ${termination}`);
  console.log(`flip: ${moves} actions of the player, ${list.length} plies, ${status}`);

  // Analysis of the game: the engine evaluates every position, the graph
  // has a point for each, and the arrow keys step through the moves.
  await page.click('#analyse-game');
  await page.waitForFunction(() => /graph is complete/.test(document.querySelector('#status').textContent), null, { timeout: 60_000 });
  const points = await page.$eval('#graph polyline', (p) => p.getAttribute('points').trim().split(/\s+/).length);
  const positions = Number(/of (\d+) positions evaluated/.exec(await page.textContent('#graph-label'))[1]);
  assert.equal(points, positions);
  assert.ok(positions >= list.length - 1 && positions <= list.length + 1, `${positions} positions for ${list.length} plies`);
  await page.focus('#graph-label');
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  assert.match(await page.textContent('#step-label'), /^ply 12: /);
  await page.waitForSelector('#pv-lines tr');
  await page.screenshot({ path: join(SHOTS, 'analysis.png') });
  assert.deepEqual(errors, []);
  await page.close();
});

// Every piece of `colour` named in a position string's board field.
function named(fen, colour) {
  const board = fen.split(' ')[0];
  return [...board.matchAll(/([rb])([1-9BMF?])/g)].filter((m) => m[1] === colour && m[2] !== '?').map((m) => m[0]);
}

test('classic: a deployment in the editor, the first moves, the belief overlay, no leak', async () => {
  const { page, frames, errors } = await openPage();
  await page.selectOption('#variant', 'classic');
  await page.check('#seat-first');
  await page.selectOption('#limit-kind', 'nodes');
  await page.fill('#limit-value', String(NODES));
  await page.click('#new-game');
  await page.waitForSelector('#deploy-panel:not([hidden])');
  const at = (p) => page.getAttribute(`#board g.piece[data-point="${p}"]`, 'data-piece');

  // Drag to swap two pieces of the front rank.
  const [a6, b6] = [await at('a6'), await at('b6')];
  const boxA = await page.locator('#board g.piece[data-point="a6"]').boundingBox();
  const boxB = await page.locator('#board g.piece[data-point="b6"]').boundingBox();
  await page.mouse.move(boxA.x + boxA.width / 2, boxA.y + boxA.height / 2);
  await page.mouse.down();
  await page.mouse.move(boxB.x + boxB.width / 2, boxB.y + boxB.height / 2, { steps: 8 });
  await page.mouse.up();
  assert.deepEqual([await at('a6'), await at('b6')], [b6, a6], 'the drag swapped a6 and b6');

  // A bomb clicked onto the front rank: the engine refuses the deployment.
  const bomb = await page.$eval('#board g.piece[data-piece="rB"]', (g) => g.dataset.point);
  await page.click(`#board g.piece[data-point="${bomb}"]`);
  await page.click('#board g.piece[data-point="c6"]');
  assert.equal(await at('c6'), 'rB');
  await page.click('#ready');
  await page.waitForFunction(() => document.querySelector('#deploy-error').textContent.length > 0);
  const refusal = await page.textContent('#deploy-error');
  assert.match(refusal, /^the engine refuses this deployment: bomb at c6 on its side's front rank/);
  await page.screenshot({ path: join(SHOTS, 'classic-refused.png') });

  // Random asks the player's engine (`go setup`), then Ready.
  await page.click('#random-setup');
  await page.waitForFunction(() => document.querySelector('#deploy-error').textContent === '');
  await page.click('#ready');
  await page.waitForFunction(() => document.body.dataset.phase === 'play');
  await page.check('#belief');
  const random = rng(9);
  for (let i = 0; i < 4; i++) {
    assert.equal(await playersTurnOrOver(page), 'play');
    await playOne(page, random, i === 1);
  }
  await playersTurnOrOver(page);
  // Take back: the player's last action and the engine's reply go.
  const played = await plies(page);
  await page.click('#takeback');
  await page.waitForFunction((n) => document.querySelectorAll('#move-list li').length === n - 2, played);
  assert.equal(await playersTurnOrOver(page), 'play');
  await playOne(page, random, false);
  await playersTurnOrOver(page);
  await page.waitForSelector('#board g.belief');
  const beliefs = await page.$$eval('#board g.belief', (gs) => gs.map((g) => g.dataset.point));
  for (const p of beliefs) assert.match(await at(p), /^r/, `the belief at ${p} is about one of your pieces`);
  await page.waitForTimeout(1500); // the combat flashes fade (the test plays faster than a person)
  await page.screenshot({ path: join(SHOTS, 'classic-belief.png') });

  // No frame names a Blue kind that the rules do not reveal.
  const games = frames.filter((f) => f.type === 'game');
  assert.ok(games.length > 4);
  for (const f of frames) {
    assert.ok(!['record', 'says', 'loaded'].includes(f.type), `no ${f.type} during the game`);
    if (f.type === 'game') {
      // The only Blue kind the rules show: the flag, after Blue's Marshal fell.
      const flagShown = f.moves.some((m) => m.tokens.some((t) => /=bF$/.test(t)));
      for (const p of named(f.fen, 'b')) assert.ok(p === 'bF' && flagShown, `frame shows ${p}: ${f.fen}`);
      for (const t of f.moves.flatMap((m) => m.tokens)) assert.match(t, /^([a-e]\d+[-x][a-e]\d+[+=-]?|[a-e]\d+=[rb]F)$/, `token ${t} names no loser`);
      assert.ok(f.setup === null || !/b/.test(f.setup), 'the proposal is the player\'s own');
    }
    if (f.type === 'setup') assert.ok(!/b/.test(f.setup), 'a proposal is Red\'s');
    if (f.type === 'info') for (const a of f.pv) assert.match(a, /^[a-e]\d+([-x][a-e]\d+)?$/);
    if (f.type === 'rootstat') assert.match(f.action, /^[a-e]\d+([-x][a-e]\d+)?$/);
  }
  const seenBeliefs = frames.filter((f) => f.type === 'belief');
  assert.ok(seenBeliefs.length > 0, 'the engine sent its belief');

  // Resign: the record is given now, with both deployments, and the move list is its plies.
  page.once('dialog', (d) => d.accept());
  await page.click('#resign');
  await page.waitForFunction(() => document.body.dataset.phase === 'over');
  const list = await page.$$eval('#move-list li', (lis) => lis.map((li) => li.textContent));
  const record = await downloadRecord(page);
  assert.match(record, /\[Termination "resign"\]/);
  assert.match(record, /\[BlueSetup "b/);
  assert.deepEqual(list, recordPlies(record));

  // The record loaded back from a file: the whole truth now, stepped through with its graph.
  await page.click('#tab-analyse');
  await page.setInputFiles('#a-load', { name: 'game.ljr', mimeType: 'text/plain', buffer: Buffer.from(record) });
  await page.waitForFunction(() => /graph is complete/.test(document.querySelector('#status').textContent), null, { timeout: 60_000 });
  await page.click('#step-last');
  const truth = await page.$$eval('#board g.piece', (gs) => gs.map((g) => g.dataset.piece));
  assert.ok(truth.some((p) => /^b[1-9BMF]$/.test(p)), 'a loaded record shows both armies');

  // At phone width the page fits without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('#tab-play');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${overflow} px wider than the phone`);
  await page.screenshot({ path: join(SHOTS, 'phone.png'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('analysis: a position set up with the palette, analysed, and played on', async () => {
  const { page, errors } = await openPage();
  await page.click('#tab-analyse');
  await page.selectOption('#a-variant', 'open');
  await page.click('#a-setup');
  const place = async (piece, point) => {
    await page.click(`#palette button[data-piece="${piece}"]`);
    await clickAt(page, `#board [data-spot="${point}"]`);
  };
  await place('rF', 'b1');
  await place('r9', 'c3');
  await place('r1', 'e4');
  await place('bF', 'd12');
  await place('b9', 'c10');
  await place('bM', 'c12');
  assert.match(await page.inputValue('#a-position'), /^fen 2bMbF1\/5\/2b92\/.* r 0 1 r1r1r2r2r2r3/);
  await page.click('#a-setup'); // done: analyse it
  await page.waitForSelector('#pv-lines tr');
  assert.match(await page.textContent('#status'), /analyses/);
  // A move on the board is added to the position's history and analysed in turn.
  await page.click('#board g.piece[data-point="c3"]');
  await clickAt(page, '#board [data-target="c4"], #board [data-target="d3"]');
  await page.waitForFunction(() => /moves c3-(c4|d3)$/.test(document.querySelector('#a-position').value));
  await page.waitForSelector('#pv-lines tr');
  await page.click('#a-stop');
  await page.waitForFunction(() => /best action/.test(document.querySelector('#status').textContent));
  await page.screenshot({ path: join(SHOTS, 'analysis-setup.png') });
  assert.deepEqual(errors, []);
  await page.close();
});
