// The explorer page: a board, the position's value, every move coloured by
// its value, and a history to walk back and forth. All knowledge of the game
// comes from the server (GET api/probe gives every legal move and the FEN
// after it), so this file knows only how to draw a FEN and how to write one.
'use strict';

const VALUE_ORDER = { loss: 0, draw: 1, win: 2 };
const DEFAULT_FEN = 'W:WK2,6:BK50';
const ARTICLE62_PLIES = 50;  // article 6.2: 25 moves of each side

const state = {
  history: [],     // {fen, plies, since, move}: the class count, the 6.2 count, and the
                   // notation of the move that led here ('' for a set-up)
  index: -1,       // current entry of history
  answer: null,    // the last api/probe answer for the current entry
  selected: 0,     // square picked on the board (0: none)
  hintTo: 0,       // end square of several captures from `selected`, to point out in the list
  tool: 'w',       // set-up piece: w/W white man/king, b/B black, '' empty
  request: 0,      // number of the latest probe: older answers are dropped
};

const $ = (id) => document.getElementById(id);

// ---- Positions: a side to move and a map square -> piece ('w','W','b','B').

// Reads PDN FEN as the server writes it (and ranges like W31-35, a trailing '.').
function parseFen(text) {
  const parts = String(text).trim().replace(/\.$/, '').split(':');
  const side = parts[0].trim().toUpperCase();
  if (side !== 'W' && side !== 'B') return null;
  const pieces = new Map();
  for (const part of parts.slice(1)) {
    const colour = part.trim().charAt(0).toUpperCase();
    if (colour !== 'W' && colour !== 'B') return null;
    for (let token of part.trim().slice(1).split(',')) {
      token = token.trim();
      if (!token) continue;
      const king = /^K/i.test(token);
      const range = token.replace(/^K/i, '').split('-').map(Number);
      const [from, to] = range.length === 2 ? range : [range[0], range[0]];
      if (!(from >= 1 && to <= 50 && from <= to)) return null;
      for (let s = from; s <= to; s++) {
        const man = colour === 'W' ? 'w' : 'b';
        pieces.set(s, king ? man.toUpperCase() : man);
      }
    }
  }
  return { side, pieces };
}

function toFen(position) {
  const list = (colour) => [...position.pieces.entries()]
    .filter(([, p]) => p.toLowerCase() === colour)
    .sort((a, b) => a[0] - b[0])
    .map(([s, p]) => (p === p.toUpperCase() ? 'K' : '') + s)
    .join(',');
  return `${position.side}:W${list('w')}:B${list('b')}`;
}

// FMJD numbering: rows 1 (top) to 10, the dark squares of each row left to right.
function squareAt(row, col) {
  return (row + col) % 2 === 1 ? (row - 1) * 5 + Math.floor((col - 1) / 2) + 1 : 0;
}

// "32-28" -> [32, 28]; "28x19", "1x16(12,21,28)" -> start and end square.
function moveSquares(notation) {
  const m = /^(\d+)[-x](\d+)/.exec(notation);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

// ---- Values: sort and describe moves from the mover's point of view.

// The value under the draw rules where the answer has it: article 6.2 with
// 6.3/6.4 in their classes (rules_wdl), else 6.3/6.4 alone (rule_wdl).
function effectiveValue(move) {
  return move.rules_wdl || move.rule_wdl || move.wdl;
}

// Best first: wins (quickest first), draws, losses (longest first).
function compareMoves(a, b) {
  const va = VALUE_ORDER[effectiveValue(a)], vb = VALUE_ORDER[effectiveValue(b)];
  if (va !== vb) return vb - va;
  if (VALUE_ORDER[a.wdl] !== VALUE_ORDER[b.wdl]) return VALUE_ORDER[b.wdl] - VALUE_ORDER[a.wdl];
  // Same value from here on: distances known first, then by length (to the
  // end of the game where both have one, else to the next conversion).
  const key = a.dtw !== null && b.dtw !== null ? 'dtw' : 'mtc';
  const da = a[key], db = b[key];  // null where unknown (every key is always there)
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    return a.wdl === 'loss' ? db - da : da - db;
  }
  return a.move.localeCompare(b.move, 'en', { numeric: true });
}

function plies(n) {
  return `${n} ${n === 1 ? 'ply' : 'plies'}`;
}

// ---- Drawing.

function buildBoard() {
  const board = $('board');
  for (let row = 1; row <= 10; row++) {
    for (let col = 1; col <= 10; col++) {
      const cell = document.createElement('div');
      const square = squareAt(row, col);
      cell.className = square ? 'cell dark' : 'cell';
      cell.setAttribute('role', 'gridcell');
      if (square) {
        cell.dataset.square = String(square);
        const num = document.createElement('span');
        num.className = 'num';
        num.textContent = String(square);
        cell.appendChild(num);
        cell.addEventListener('click', () => onSquareClick(square));
      }
      board.appendChild(cell);
    }
  }
}

function currentEntry() {
  return state.history[state.index];
}

function drawBoard() {
  const entry = currentEntry();
  const position = entry ? parseFen(entry.fen) : null;
  const [lastFrom, lastTo] = entry && entry.move ? moveSquares(entry.move) : [0, 0];
  const targets = targetsOf(state.selected);
  for (const cell of $('board').querySelectorAll('.cell.dark')) {
    const square = Number(cell.dataset.square);
    for (const old of cell.querySelectorAll('.piece, .target')) old.remove();
    cell.classList.toggle('last', square === lastFrom || square === lastTo);
    cell.classList.toggle('selected', square === state.selected);
    const piece = position && position.pieces.get(square);
    cell.setAttribute('aria-label', `square ${square}${piece ? ', ' + pieceName(piece) : ''}`);
    if (piece) {
      const div = document.createElement('div');
      div.className = `piece ${piece.toLowerCase() === 'w' ? 'white' : 'black'}${piece === piece.toUpperCase() ? ' king' : ''}`;
      cell.appendChild(div);
    }
    if (targets.has(square)) {
      const dot = document.createElement('div');
      dot.className = `target ${targets.get(square)}`;
      cell.appendChild(dot);
    }
  }
}

function pieceName(p) {
  return `${p.toLowerCase() === 'w' ? 'white' : 'black'} ${p === p.toUpperCase() ? 'king' : 'man'}`;
}

// End squares of the moves starting on `square`, with the best value reaching each.
function targetsOf(square) {
  const targets = new Map();
  if (!square || !state.answer || !state.answer.moves) return targets;
  for (const move of state.answer.moves) {
    const [from, to] = moveSquares(move.move);
    if (from !== square) continue;
    const value = effectiveValue(move), old = targets.get(to);
    if (!old || VALUE_ORDER[value] > VALUE_ORDER[old]) targets.set(to, value);
  }
  return targets;
}

function sideName(side) {
  return side === 'W' ? 'White' : 'Black';
}

function drawStatus() {
  const status = $('status');
  const answer = state.answer;
  const entry = currentEntry();
  status.replaceChildren();
  status.className = 'status';
  for (const key of ['wdl', 'dtw', 'rule', 'mtc', 'rules', 'error']) delete status.dataset[key];
  if (!answer) {
    status.textContent = entry ? 'Probing…' : '';
    return;
  }
  if (answer.error) {
    status.classList.add('error');
    status.dataset.error = String(answer.httpStatus);
    line(status, 'headline', answer.error);
    if (answer.material) line(status, 'detail', `material ${answer.material}`);
    if (answer.file) line(status, 'detail', `table ${answer.file}${Number.isInteger(answer.block) ? ', block ' + answer.block : ''}`);
    return;
  }
  const position = parseFen(answer.fen);
  const value = entry.since >= ARTICLE62_PLIES ? 'draw' : effectiveValue(answer);  // 6.2 has drawn the game
  status.classList.add(value);
  status.dataset.wdl = answer.wdl;
  if (answer.dtw !== null) status.dataset.dtw = String(answer.dtw);
  if (answer.rule_wdl) status.dataset.rule = answer.rule_wdl;
  if (answer.mtc !== null) status.dataset.mtc = String(answer.mtc);
  if (answer.rules_wdl) status.dataset.rules = answer.rules_wdl;
  const mover = position ? sideName(position.side) : 'Side to move';
  const distance = answer.dtw !== null ? `, game over in ${plies(answer.dtw)}` : '';
  line(status, 'headline', `${mover} to move: ${answer.wdl}${distance}`);
  if (answer.mtc !== null && answer.moves.length > 0) {
    line(status, 'detail', `Next capture or man move in ${plies(answer.mtc)} with perfect play` +
         (answer.best_move ? `: ${answer.best_move}` : ''));
  }
  if (answer.rule_wdl) {
    // In a class the move of perfect play under its count (dtb_best_move_rule)
    // can differ from the quickest conversion: a man move can spend the count.
    const best = answer.rules_best_move && answer.rules_best_move !== answer.best_move
      ? `; keep it with ${answer.rules_best_move}` : '';
    line(status, 'detail', `Under the draw rules (6.3/6.4) with ${plies(entry.plies)} played in the class: ` +
         `${answer.rule_wdl}${answer.rule_wdl !== answer.wdl ? ' (the count runs out first)' : best}`);
  }
  if (answer.rules_wdl && !answer.rule_wdl) {
    const best = answer.rules_best_move && answer.rules_best_move !== answer.best_move
      ? `; keep it with ${answer.rules_best_move}` : '';
    line(status, 'detail', `Under article 6.2 with ${plies(entry.since)} since the last capture or man move: ` +
         `${answer.rules_wdl}${answer.rules_wdl !== answer.wdl ? ' (the count runs out first)' : best}`);
  }
  if (entry.since >= ARTICLE62_PLIES)
    line(status, 'detail', 'Drawn under article 6.2: 25 moves each without a capture or a man move.');
  if (answer.moves.length === 0) line(status, 'detail', 'No legal move: the game is over.');
}

function line(parent, className, text) {
  const div = document.createElement('div');
  div.className = className;
  div.textContent = text;
  parent.appendChild(div);
}

function drawMoves(hint) {
  const list = $('moves');
  list.replaceChildren();
  $('moves-note').textContent = hint || '';
  if (!state.answer || !state.answer.moves) return;
  const moves = [...state.answer.moves].sort(compareMoves);
  for (const move of moves) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = effectiveValue(move);
    button.dataset.move = move.move;
    button.dataset.wdl = move.wdl;
    if (move.rule_wdl) button.dataset.rule = move.rule_wdl;
    if (move.rules_wdl) button.dataset.rules = move.rules_wdl;
    if (move.dtw !== null) button.dataset.dtw = String(move.dtw);
    if (move.mtc !== null) button.dataset.mtc = String(move.mtc);
    if (move.move === state.answer.best_move) {
      button.classList.add('perfect');
      button.title = 'the move of perfect play (least moves to conversion in a win, most in a loss)';
    }
    const [from, to] = moveSquares(move.move);
    if (hint && state.selected === from && state.hintTo === to) button.classList.add('hint');
    const notation = document.createElement('span');
    notation.className = 'notation';
    notation.textContent = move.move;
    const value = document.createElement('span');
    value.className = `value v-${move.wdl}`;
    value.textContent = { win: 'wins', draw: 'draws', loss: 'loses' }[move.wdl];
    const ruled = effectiveValue(move);
    if (ruled !== move.wdl) {  // a count turns the result
      const rule = document.createElement('span');
      rule.className = `rule v-${ruled}`;
      rule.title = move.rules_wdl ? 'value under the draw rules (article 6.2, 6.3/6.4 in their classes)'
        : 'value under the draw rules 6.3/6.4';
      rule.textContent = `rule ${ruled}`;
      value.appendChild(rule);
    }
    const distance = document.createElement('span');
    distance.className = 'distance';
    const parts = [];
    if (move.dtw !== null) parts.push(`in ${plies(move.dtw)}`);
    if (move.mtc !== null) parts.push(`converts in ${move.mtc}`);
    distance.textContent = parts.join(' · ');
    button.append(notation, value, distance);
    button.addEventListener('click', () => playMove(move));
    button.addEventListener('mouseenter', () => highlight(from, to, true));
    button.addEventListener('mouseleave', () => highlight(from, to, false));
    item.appendChild(button);
    list.appendChild(item);
  }
}

function highlight(from, to, on) {
  for (const square of [from, to]) {
    const cell = $('board').querySelector(`[data-square="${square}"]`);
    if (cell) cell.classList.toggle('selected', on || square === state.selected);
  }
}

function drawLine() {
  const list = $('line');
  list.replaceChildren();
  state.history.forEach((entry, i) => {
    if (i > 0 && !entry.move) return;
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = i === 0 ? 'start' : entry.move;
    if (i === state.index) button.classList.add('current');
    button.addEventListener('click', () => go(i));
    item.appendChild(button);
    list.appendChild(item);
  });
}

function drawAll(hint) {
  const entry = currentEntry();
  if (entry && document.activeElement !== $('fen')) $('fen').value = entry.fen;
  if (entry && document.activeElement !== $('plies')) $('plies').value = String(entry.plies);
  if (entry && document.activeElement !== $('since')) $('since').value = String(Math.min(entry.since, ARTICLE62_PLIES - 1));
  $('back').disabled = state.index <= 0;
  $('forward').disabled = state.index >= state.history.length - 1;
  const position = entry ? parseFen(entry.fen) : null;
  for (const b of document.querySelectorAll('.side'))
    b.setAttribute('aria-pressed', String(position !== null && b.dataset.side === position.side));
  drawBoard();
  drawStatus();
  drawMoves(hint);
  drawLine();
}

// ---- Talking to the server.

async function probe() {
  const entry = currentEntry();
  if (!entry) return;
  const number = ++state.request;
  state.answer = null;
  state.selected = 0;
  drawAll();
  let answer;
  // A set-up under way, where the side that just moved has no piece: no
  // game reaches that, so there is nothing to ask yet. (The side to move
  // without pieces has lost: the server says so.)
  const position = parseFen(entry.fen);
  const other = position && (position.side === 'W' ? 'b' : 'w');
  if (position && ![...position.pieces.values()].some((p) => p.toLowerCase() === other)) {
    state.answer = { error: 'Put at least one piece of each colour on the board.', httpStatus: 0 };
    drawAll();
    return;
  }
  try {
    // At 50 plies 6.2 has drawn the game: no count to send (the status says so).
    const since = entry.since < ARTICLE62_PLIES ? `&plies_since_conversion=${entry.since}` : '';
    const url = `api/probe?fen=${encodeURIComponent(entry.fen)}&plies_in_class=${entry.plies}${since}`;
    const response = await fetch(url);
    answer = await response.json();
    answer.httpStatus = response.status;
  } catch (e) {
    answer = { error: `no answer from the server (${e.message})`, httpStatus: 0 };
  }
  if (number !== state.request) return;  // a newer position was asked for meanwhile
  state.answer = answer;
  if (!answer.error && answer.fen && answer.fen !== entry.fen) entry.fen = answer.fen;
  drawAll();
  saveInUrl();
}

async function loadLongestWins() {
  let report;
  try {
    const response = await fetch('api/rules');
    if (!response.ok) return;  // no rule tables in this directory
    report = await response.json();
  } catch (e) {
    return;
  }
  const list = $('longest-list');
  for (const entry of report) {
    const fen = entry.longest_win_in_class_fen;
    if (entry.longest_win_in_class === null || !fen) continue;
    const item = document.createElement('li');
    const link = document.createElement('a');
    link.href = `#fen=${encodeURIComponent(fen)}&plies=0&since=0`;
    link.textContent = `${entry.material}, ${entry.to_move} to move`;
    link.dataset.fen = fen;
    link.addEventListener('click', (event) => {
      event.preventDefault();
      newPosition(fen, 0, 0);
    });
    item.append(link, ` (${entry.article}): ${plies(entry.longest_win_in_class)} of the ${entry.limit_plies} ` +
                `allowed, dtw ${entry.longest_win_dtw}`);
    list.appendChild(item);
  }
  $('longest').hidden = list.children.length === 0;
}

// ---- Moving through positions.

function go(index) {
  if (index < 0 || index >= state.history.length || index === state.index) return;
  state.index = index;
  probe();
}

// A position typed, linked or set up: it starts a new line.
function newPosition(fen, plies, since) {
  state.history = [{ fen, plies, since, move: '' }];
  state.index = 0;
  probe();
}

function playMove(move) {
  state.history.length = state.index + 1;  // playing drops the moves ahead
  // Both counts carry on as the server says (a conversion starts the 6.2
  // count again; a move that ends the game has none).
  const since = move.plies_since_conversion !== null ? move.plies_since_conversion : 0;
  state.history.push({ fen: move.fen, plies: move.plies_in_class || 0, since, move: move.move });
  state.index++;
  probe();
}

function onSquareClick(square) {
  if ($('setup').checked) return setUp(square);
  if (!state.answer || !state.answer.moves) return;
  const candidates = state.answer.moves.filter((m) => {
    const [from, to] = moveSquares(m.move);
    return from === state.selected && to === square;
  });
  if (candidates.length === 1) return playMove(candidates[0]);
  if (candidates.length > 1) {
    state.hintTo = square;
    drawMoves('Several captures go from there to there: pick one in the list.');
    return;
  }
  const starts = state.answer.moves.some((m) => moveSquares(m.move)[0] === square);
  state.selected = starts && square !== state.selected ? square : 0;
  drawBoard();
}

// Set-up: put the chosen piece (clicking the same piece again empties the square).
function setUp(square) {
  const entry = currentEntry();
  const position = (entry && parseFen(entry.fen)) || { side: 'W', pieces: new Map() };
  if (!state.tool || position.pieces.get(square) === state.tool) position.pieces.delete(square);
  else position.pieces.set(square, state.tool);
  editPosition(position);
}

function editPosition(position) {
  const entry = currentEntry();
  newPosition(toFen(position), entry ? entry.plies : 0, entry ? entry.since : 0);
}

// ---- The address: #fen=...&plies=N&since=C, so a position can be shared or bookmarked.

function saveInUrl() {
  const entry = currentEntry();
  if (!entry) return;
  const hash = `#fen=${encodeURIComponent(entry.fen)}&plies=${entry.plies}&since=${entry.since}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function readUrl() {
  const params = new URLSearchParams(location.hash.slice(1));
  const fen = params.get('fen');
  const count = Math.min(32, Math.max(0, parseInt(params.get('plies') || '0', 10) || 0));
  // 50: the count has run out (a line played to it); the game is drawn.
  const since = Math.min(ARTICLE62_PLIES, Math.max(0, parseInt(params.get('since') || '0', 10) || 0));
  return fen ? { fen, plies: count, since } : null;
}

// ---- Controls.

function setTool(tool) {
  state.tool = tool;
  for (const b of document.querySelectorAll('.tool')) b.setAttribute('aria-pressed', String(b.dataset.tool === tool));
}

// A count typed into input `id`: kept in 0..max and set on the current position.
function setCount(id, field, max) {
  const entry = currentEntry();
  const value = Math.min(max, Math.max(0, parseInt($(id).value, 10) || 0));
  $(id).value = String(value);
  if (entry && entry[field] !== value) {
    entry[field] = value;
    probe();
  }
}

function wireControls() {
  $('fen-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const fen = $('fen').value.trim();
    const entry = currentEntry();
    if (fen) newPosition(fen, entry ? entry.plies : 0, entry ? entry.since : 0);
    $('fen').blur();
  });
  $('plies').addEventListener('change', () => setCount('plies', 'plies', 32));
  $('since').addEventListener('change', () => setCount('since', 'since', ARTICLE62_PLIES - 1));
  $('back').addEventListener('click', () => go(state.index - 1));
  $('forward').addEventListener('click', () => go(state.index + 1));
  $('numbers').addEventListener('change', () => $('board').classList.toggle('numbers', $('numbers').checked));
  $('setup').addEventListener('change', () => {
    $('palette').hidden = !$('setup').checked;
    state.selected = 0;
    drawBoard();
  });
  for (const b of document.querySelectorAll('.tool')) b.addEventListener('click', () => setTool(b.dataset.tool));
  for (const b of document.querySelectorAll('.side')) {
    b.addEventListener('click', () => {
      const entry = currentEntry();
      const position = (entry && parseFen(entry.fen)) || { side: 'W', pieces: new Map() };
      position.side = b.dataset.side;
      editPosition(position);
    });
  }
  $('clear').addEventListener('click', () => editPosition({ side: 'W', pieces: new Map() }));
  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === 'ArrowLeft') go(state.index - 1);
    if (event.key === 'ArrowRight') go(state.index + 1);
  });
  window.addEventListener('hashchange', () => {
    const wanted = readUrl();
    const entry = currentEntry();
    if (wanted && (!entry || wanted.fen !== entry.fen || wanted.plies !== entry.plies || wanted.since !== entry.since))
      newPosition(wanted.fen, wanted.plies, wanted.since);
  });
}

function start() {
  buildBoard();
  wireControls();
  const wanted = readUrl() || { fen: DEFAULT_FEN, plies: 0, since: 0 };
  newPosition(wanted.fen, wanted.plies, wanted.since);
  loadLongestWins();
}

document.addEventListener('DOMContentLoaded', start);
