// Roulette drawn as its board and wheel. Every inside bet is tapped where its chip goes on a
// real layout: a split on the line between two numbers, a corner where four meet, a street on
// the outer line of its row, a six-line where two streets meet, the trios / first four / top
// line at the zero. Three geometries, picked from the room: wide (the usual horizontal board),
// tall (vertical, the outside bets beside it) and phone (vertical, the outside bets below).
// The bet names are the variant's limits (straight-N, split-A-B, corner-A-B-C-D, street-...,
// line-..., trio-..., first-four, top-line, column-K, dozen-K and the even-money bets).
'use strict';

const RouletteLayout = (() => {
  const { svg } = Croupier;
  const C = 100;  // one number's cell, in drawing units (a split along its side: C - T)
  const T = 50;  // the inside targets on the lines (about 46 px at the kiosk scales)
  const K = 72;  // the column bets' depth
  const EUROPEAN = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26];
  const AMERICAN = [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, '00', 27, 10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2];
  const OUTSIDE = [['low', '1 TO 18'], ['even', 'EVEN'], ['red', 'RED'], ['black', 'BLACK'], ['odd', 'ODD'], ['high', '19 TO 36']];

  const has = b => !!S.meta.limits[b];
  const doubleZero = () => has('straight-00');

  /**
   * The number grid in "vertical" coordinates: u across the three columns (1 2 3 left to right),
   * v down from the zero. Rectangles are [u, v, du, dv]; targets on lines are centred there.
   */
  function grid() {
    const Z = doubleZero() ? 150 : 100;
    const out = [];
    const inside = [];
    const at = (bet, cu, cv, du, dv, extra) => { if (has(bet)) inside.push({ bet, u: cu - du / 2, v: cv - dv / 2, du, dv, art: false, ...(extra || {}) }); };
    if (doubleZero()) {
      out.push({ bet: 'straight-0', u: 0, v: 0, du: 1.5 * C, dv: Z, label: '0', area: 'r-green', size: 34 });
      out.push({ bet: 'straight-00', u: 1.5 * C, v: 0, du: 1.5 * C, dv: Z, label: '00', area: 'r-green', size: 34 });
    } else {
      out.push({ bet: 'straight-0', u: 0, v: 0, du: 3 * C, dv: Z, label: '0', area: 'r-green', size: 38 });
    }
    for (let n = 1; n <= 36; n++) {
      const r = Math.floor((n - 1) / 3);
      const c = (n - 1) % 3;
      out.push({ bet: `straight-${n}`, u: c * C, v: Z + r * C, du: C, dv: C, label: String(n), area: 'r-' + pocketColour(String(n)), size: 30, name: `Straight up ${n}` });
    }
    for (let k = 1; k <= 3; k++) out.push({ bet: `column-${k}`, u: (k - 1) * C, v: Z + 12 * C, du: C, dv: K, label: '2 TO 1', size: 18, name: `Column ${k}` });
    // Inside bets on the lines (after the numbers: drawn over them, tapped first).
    for (let n = 1; n <= 36; n++) {
      const r = Math.floor((n - 1) / 3);
      const c = (n - 1) % 3;
      const v = Z + r * C;
      if (c < 2) at(`split-${n}-${n + 1}`, (c + 1) * C, v + C / 2, T, C - T);
      if (r < 11) at(`split-${n}-${n + 3}`, c * C + C / 2, v + C, C - T, T);
      if (c < 2 && r < 11) at(`corner-${n}-${n + 1}-${n + 3}-${n + 4}`, (c + 1) * C, v + C, T, T);
      if (c === 0) {
        at(`street-${n}-${n + 1}-${n + 2}`, 0, v + C / 2, T, C - T);
        if (r < 11) at(`line-${n}-${n + 1}-${n + 2}-${n + 3}-${n + 4}-${n + 5}`, 0, v + C, T, T);
      }
    }
    if (doubleZero()) {
      at('top-line', 0, Z, T, T, { name: 'Top line 0-00-1-2-3' });
      at('split-0-1', C / 2, Z, T, T);
      at('trio-0-1-2', C, Z, T, T);
      at('trio-0-00-2', 1.5 * C, Z, T, T);
      at('trio-00-2-3', 2 * C, Z, T, T);
      at('split-00-3', 2.5 * C, Z, T, T);
      at('split-0-2', 1.5 * C - T / 2, Z - T, T, T);
      at('split-00-2', 1.5 * C + T / 2, Z - T, T, T);
      at('split-0-00', 1.5 * C, T * 0.7, T, T);
    } else {
      at('first-four', 0, Z, T, T, { name: 'First four 0-1-2-3' });
      at('split-0-1', C / 2, Z, C - T, T);
      at('trio-0-1-2', C, Z, T, T);
      at('split-0-2', 1.5 * C, Z, C - T, T);
      at('trio-0-2-3', 2 * C, Z, T, T);
      at('split-0-3', 2.5 * C, Z, C - T, T);
    }
    return { Z, items: out, inside, depth: Z + 12 * C + K };
  }

  const rect = (it, x, y, w, h) => ({ ...it, x, y, w, h });

  /** Vertical board; the outside bets beside it (tall) or below it (phone). */
  function vertical(beside) {
    const g = grid();
    const side = beside ? 2 * 84 : 0;
    const G = side + T / 2 + 4;  // where the grid's outer (street) line is
    const spots = g.items.map(it => rect(it, G + it.u, it.v, it.du, it.dv));
    if (beside) {
      for (let k = 1; k <= 3; k++) spots.push({ bet: `dozen-${k}`, x: 84 + 2, y: g.Z + (k - 1) * 4 * C, w: 84 + T / 2, h: 4 * C, label: ['1ST\n12', '2ND\n12', '3RD\n12'][k - 1], size: 20 });
      OUTSIDE.forEach(([b, l], i) => spots.push({ bet: b, x: 2, y: g.Z + i * 2 * C, w: 84, h: 2 * C, label: l.replace(' TO ', '\nTO\n'), size: 16, area: b === 'red' ? 'r-red' : b === 'black' ? 'r-black' : '' }));
      spots.push(...g.inside.map(it => rect(it, G + it.u, it.v, it.du, it.dv)));
      return { W: G + 3 * C + 4, H: g.depth + 4, spots, geometry: 'tall' };
    }
    let y = g.depth + 8;
    for (let k = 1; k <= 3; k++) spots.push({ bet: `dozen-${k}`, x: G + (k - 1) * C, y, w: C, h: 70, label: ['1ST 12', '2ND 12', '3RD 12'][k - 1], size: 16 });
    y += 70;
    OUTSIDE.forEach(([b, l], i) => spots.push({ bet: b, x: G + i * C / 2, y, w: C / 2, h: 80, label: l.replace(' TO ', '\n'), size: 12, area: b === 'red' ? 'r-red' : b === 'black' ? 'r-black' : '' }));
    spots.push(...g.inside.map(it => rect(it, G + it.u, it.v, it.du, it.dv)));
    return { W: G + 3 * C + 4, H: y + 84, spots, geometry: 'phone' };
  }

  /** The usual horizontal board: zero at the left, 1-2-3 the first column, streets at the bottom. */
  function horizontal() {
    const g = grid();
    const top = 4;
    const flip = it => rect(it, it.v + 4, top + 3 * C - (it.u + it.du), it.dv, it.du);
    const spots = g.items.map(flip);
    const y0 = top + 3 * C;
    for (let k = 1; k <= 3; k++) spots.push({ bet: `dozen-${k}`, x: 4 + g.Z + (k - 1) * 4 * C, y: y0, w: 4 * C, h: 74, label: ['1st 12', '2nd 12', '3rd 12'][k - 1].toUpperCase(), size: 24 });
    OUTSIDE.forEach(([b, l], i) => spots.push({ bet: b, x: 4 + g.Z + i * 2 * C, y: y0 + 74, w: 2 * C, h: 74, label: l, size: 22, area: b === 'red' ? 'r-red' : b === 'black' ? 'r-black' : '' }));
    spots.push(...g.inside.map(flip));
    return { W: g.depth + 8, H: y0 + 148 + 4, spots, geometry: 'wide' };
  }

  /** The chip marker for the last winning number, drawn over the board. */
  function winMarker(spots) {
    const n = state().number;
    const sp = n !== undefined && n !== null && spots.find(s => s.bet === `straight-${n}`);
    if (!sp) return [];
    return [svg('circle', { cx: sp.x + sp.w / 2, cy: sp.y + sp.h / 2, r: Math.min(sp.w, sp.h) * 0.36, class: 'win-marker', 'data-number': String(n) })];
  }

  function draw() {
    const w = Board.room();
    const wideW = grid().depth + 8;
    const g = window.innerWidth <= 700 ? vertical(false) : w >= wideW * 0.92 ? horizontal() : vertical(true);
    const scale = g.geometry === 'wide' ? 1.1 : g.geometry === 'tall' ? 0.93 : 1.15;
    return Board.board('roulette', g.W, g.H, g.spots, [], { maxScale: scale, top: winMarker(g.spots), geometry: g.geometry });
  }

  // --- the wheel --------------------------------------------------------------------------
  let lastSpin = null;
  let spunAt = 0;

  /** The wheel with the ball in `number`'s pocket; it spins when `spin` (the game and number
   * that came up) is new to the page. */
  function wheel(number, spin) {
    const order = doubleZero() ? AMERICAN : EUROPEAN;
    const R = 100;
    const step = 360 / order.length;
    const s = svg('svg', { viewBox: '-110 -110 220 220', class: 'wheel', role: 'img', 'aria-label': number !== null && number !== undefined ? `the wheel: the ball is in ${number}` : 'the wheel' });
    const rotor = svg('g', { class: 'wheel-rotor' });
    const rad = a => (a - 90) * Math.PI / 180;
    order.forEach((p, i) => {
      const a0 = rad(i * step - step / 2);
      const a1 = rad(i * step + step / 2);
      const pt = (r, a) => `${(r * Math.cos(a)).toFixed(2)} ${(r * Math.sin(a)).toFixed(2)}`;
      rotor.append(svg('path', { d: `M ${pt(62, a0)} L ${pt(R, a0)} A ${R} ${R} 0 0 1 ${pt(R, a1)} L ${pt(62, a1)} A 62 62 0 0 0 ${pt(62, a0)} Z`, class: 'pocket ' + pocketColour(String(p)), 'data-pocket': String(p) }));
      const t = svg('text', { x: 0, y: -86, transform: `rotate(${i * step})`, 'text-anchor': 'middle', 'dominant-baseline': 'middle', class: 'pocket-num' });
      t.textContent = String(p);
      rotor.append(t);
    });
    rotor.append(svg('circle', { cx: 0, cy: 0, r: 62, class: 'wheel-cone' }), svg('circle', { cx: 0, cy: 0, r: 14, class: 'wheel-hub' }));
    s.append(svg('circle', { cx: 0, cy: 0, r: 108, class: 'wheel-rim' }), rotor);
    const idx = order.findIndex(p => String(p) === String(number));
    if (idx >= 0) {
      const end = -idx * step;  // the winning pocket turned to the top, under the ball
      rotor.style.setProperty('--end', `${end}deg`);
      rotor.style.transform = `rotate(${end}deg)`;
      s.append(svg('circle', { cx: 0, cy: -74, r: 6, class: 'wheel-ball' }));
      const key = spin;
      const now = performance.now();
      if (key !== lastSpin) { lastSpin = key; spunAt = Board.ready() ? now : -1e9; if (Board.ready()) Board.count('spins'); }
      const age = now - spunAt;
      if (age < 1600) { rotor.classList.add('spinning'); rotor.style.animationDelay = `-${Math.round(age)}ms`; }
    }
    return s;
  }

  // The numbers this page has seen come up, newest first (the marquee beside a real wheel).
  const recent = [];
  let recentKey = null;

  function note(n) {
    const key = `${S.game}|${n}`;
    if (key === recentKey) return;
    recentKey = key;
    recent.unshift(String(n));
    recent.splice(12);
  }

  function felt(st) {
    const n = st.number;
    const known = n !== undefined && n !== null && n !== '';
    if (known) note(n);
    // Until the next spin the ball stays in the last number's pocket.
    const shown = known ? n : recent[0];
    return [el('div', { class: 'dice-tray wheel-tray' }, wheel(shown === undefined ? null : shown, recentKey),
      el('div', { class: 'wheel-side' },
        el('div', { class: 'wheel-number ' + (known ? pocketColour(String(n)) : ''), dataset: { number: known ? String(n) : '' }, text: known ? String(n) : '–' }),
        el('div', { class: 'small', text: known ? `The ball landed on ${n} (${pocketColour(String(n))}).` : 'Place your chips on the board, then Spin.' }),
        recent.length ? el('div', { class: 'recent-numbers', 'aria-label': 'last numbers, newest first' },
          recent.map(x => el('span', { class: 'recent ' + pocketColour(x), text: x }))) : null))];
  }

  return { draw, felt, grid, horizontal, vertical };
})();

R.roulette.spots = () => RouletteLayout.draw();
R.roulette.felt = st => RouletteLayout.felt(st);
