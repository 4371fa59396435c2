// Craps drawn as its layout: the place numbers with their lay / place-to-lose / don't come /
// come / buy areas and the odds behind come bets, come and don't come, the field, big 6 and 8,
// the pass line and don't pass bar with their odds, and the proposition box (hardways, any
// seven, the craps, yo, horn, world); the puck sits on the point. Two geometries: wide (kiosk)
// and narrow (phone). Every spot is the bet name table_dice.js's spot list used.
'use strict';

const CrapsLayout = (() => {
  const { svg, die } = Croupier;
  const NUMS = [4, 5, 6, 8, 9, 10];
  const NUM_TEXT = { 4: '4', 5: '5', 6: 'SIX', 8: '8', 9: 'NINE', 10: '10' };
  const HARD = { 4: [2, 2], 6: [3, 3], 8: [4, 4], 10: [5, 5] };
  const PROP_DICE = { 'crap-2': [1, 1], 'crap-3': [1, 2], 'crap-12': [6, 6], 'any-11': [5, 6] };

  /** A row of spots across [x0, x0 + w): cells are [bet, weight, label, opts]. */
  function row(x0, y, w, h, cells) {
    const total = cells.reduce((a, c) => a + c[1], 0);
    let x = x0;
    return cells.map(([bet, weight, label, o]) => {
      const cw = w * weight / total;
      const sp = { bet, x, y, w: cw, h, label, ...(o || {}) };
      x += cw;
      return sp;
    });
  }

  /** The place-number block: per number its sub-areas, stacked (narrow) or paired (wide). */
  function numbers(x0, y0, colW, wide) {
    const out = [];
    NUMS.forEach((n, i) => {
      const x = x0 + i * colW;
      const s = wide ? 15 : 12;
      const pair = (y, h, a, al, b, bl) => wide
        ? row(x, y, colW, h, [[a, 1, al, { size: s }], [b, 1, bl, { size: s }]])
        : [{ bet: a, x, y, w: colW, h, label: al, size: s }, { bet: b, x, y: y + h, w: colW, h, label: bl, size: s }];
      const h = 56;
      let y = y0;
      out.push(...pair(y, h, `lay-${n}`, 'LAY', `place-lose-${n}`, 'TO LOSE'));
      y += wide ? h : 2 * h;
      out.push(...pair(y, h, `dont-come-${n}`, "DON'T\nCOME", `dont-come-odds-${n}`, "DC\nODDS"));
      y += wide ? h : 2 * h;
      out.push({ bet: `place-win-${n}`, x, y, w: colW, h: 100, label: NUM_TEXT[n], size: wide ? 44 : 30, lcls: 'lbl number', area: 'number', name: `Place ${n} to win` });
      y += 100;
      out.push(...pair(y, h, `come-${n}`, 'COME', `come-odds-${n}`, 'COME\nODDS'));
      y += wide ? h : 2 * h;
      out.push({ bet: `buy-${n}`, x, y, w: colW, h, label: 'BUY', size: s });
    });
    return out;
  }

  function propBox(x0, y0, w) {
    return [
      ...row(x0, y0, w, 56, [['any-7', 1, 'ANY SEVEN', { area: 'red' }]]),
      ...row(x0, y0 + 56, w, 96, [['hard-6', 1, 'HARD 6'], ['hard-10', 1, 'HARD 10']]),
      ...row(x0, y0 + 152, w, 96, [['hard-8', 1, 'HARD 8'], ['hard-4', 1, 'HARD 4']]),
      ...row(x0, y0 + 248, w, 76, [['crap-2', 1, 'ACES'], ['crap-3', 1, 'ACE-DEUCE'], ['crap-12', 1, 'TWELVE']]),
      ...row(x0, y0 + 324, w, 76, [['any-11', 1, 'YO 11'], ['horn', 1, 'HORN'], ['world', 1, 'WORLD']]),
      ...row(x0, y0 + 400, w, 60, [['any-craps', 1, 'ANY CRAPS', { area: 'red' }]]),
    ].map(sp => ({ ...sp, size: sp.size || 15, lcls: 'lbl prop' }));
  }

  /** Two small dice drawn in a proposition area (the hardways and the one-roll numbers). */
  function propDice(spots) {
    const out = [];
    for (const sp of spots) {
      const faces = sp.bet.startsWith('hard-') ? HARD[Number(sp.bet.slice(5))] : PROP_DICE[sp.bet];
      if (faces) out.push(...Board.diceArt(sp, faces, Math.min(26, sp.h * 0.32)));
    }
    return out;
  }

  function puck(spots, st, home) {
    const on = st.puck === 'ON' && st.table_point;
    const at = on ? spots.find(sp => sp.bet === `place-win-${st.table_point}`) : home;
    if (!at) return [];
    const r = Math.min(22, at.w * 0.26);
    const cx = on ? at.x + at.w - r - 6 : at.x + at.w / 2;
    const cy = on ? at.y + r + 6 : at.y + at.h / 2;
    const g = svg('g', { class: 'puck-art ' + (on ? 'on' : 'off'), 'data-point': on ? String(st.table_point) : '' });
    g.append(svg('circle', { cx, cy, r }), Board.multiline(cx, cy, on ? 'ON' : 'OFF', 14, 'puck-text'));
    return [g];
  }

  function wide(st) {
    const W = 1200;
    const H = 644;
    const spots = [
      ...numbers(0, 0, 140, true),
      ...row(0, 328, 840, 70, [['dont-come', 2, "DON'T COME BAR 12", { size: 18 }], ['come', 4.4, 'COME', { size: 40 }]]),
      ...row(0, 402, 840, 90, [['big-6', 1, 'BIG\n6', { size: 20, area: 'red' }], ['big-8', 1, 'BIG\n8', { size: 20, area: 'red' }],
        ['field', 10, 'FIELD\n2 · 3 · 4 · 9 · 10 · 11 · 12', { size: 24, area: 'field' }]]),
      ...row(0, 496, 840, 62, [['dont-pass', 4.25, "DON'T PASS BAR 12", { size: 24 }], ['dont-pass-odds', 1, "DON'T PASS\nODDS", { size: 14 }]]),
      ...row(0, 562, 840, 78, [['pass', 4.25, 'PASS LINE', { size: 40, area: 'pass' }], ['pass-odds', 1, 'PASS\nODDS', { size: 16 }]]),
      ...propBox(860, 44, 340),
    ];
    const home = { x: 860, y: 520, w: 340, h: 110 };
    const art = [Board.multiline(1030, 24, 'PROPOSITION BETS', 16, 'lbl heading'),
      svg('rect', { x: home.x + 2, y: home.y, width: home.w - 4, height: home.h, rx: 12, class: 'area home' }),
      Board.multiline(home.x + 90, home.y + home.h / 2, 'PUCK', 14, 'lbl heading'),
      ...propDice(spots)];
    return { W, H, spots, art, top: puck(spots, st, { x: home.x + 150, y: home.y, w: 60, h: home.h }), maxScale: 1.25 };
  }

  function narrow(st) {
    const W = 360;
    const block = numbers(0, 0, 60, false);
    let y = 56 * 7 + 100 + 8;  // the number block: seven 56-unit areas and the number
    const rows = [];
    const add = (h, cells) => { rows.push(...row(0, y, W, h, cells)); y += h; };
    add(64, [['come', 1, 'COME', { size: 30 }]]);
    add(56, [['dont-come', 1, "DON'T COME BAR 12", { size: 18 }]]);
    add(76, [['field', 1, 'FIELD\n2 · 3 · 4 · 9 · 10 · 11 · 12', { size: 18, area: 'field' }]]);
    add(56, [['big-6', 1, 'BIG 6', { size: 18, area: 'red' }], ['big-8', 1, 'BIG 8', { size: 18, area: 'red' }]]);
    add(56, [['dont-pass', 2, "DON'T PASS BAR 12", { size: 16 }], ['dont-pass-odds', 1, "DP ODDS", { size: 14 }]]);
    add(64, [['pass', 2, 'PASS LINE', { size: 26, area: 'pass' }], ['pass-odds', 1, 'PASS ODDS', { size: 14 }]]);
    y += 8;
    const props = propBox(0, y, W);
    y += 460 + 8;
    const home = { x: 0, y, w: W, h: 60 };
    const spots = [...block, ...rows, ...props];
    const art = [svg('rect', { x: 2, y: home.y, width: W - 4, height: home.h, rx: 12, class: 'area home' }),
      Board.multiline(90, home.y + 30, 'PUCK', 14, 'lbl heading'),
      ...propDice(spots)];
    return { W, H: y + home.h, spots, art, top: puck(spots, st, { x: 150, y: home.y, w: 60, h: home.h }), maxScale: 1.2 };
  }

  function draw() {
    const st = state();
    const g = Board.room() >= 720 ? wide(st) : narrow(st);
    return Board.board('craps', g.W, g.H, g.spots, g.art, { maxScale: g.maxScale, top: g.top, geometry: g.W === 1200 ? 'wide' : 'narrow' });
  }

  return { draw, wide, narrow };
})();

// The layout replaces the spot rows; the dice tray stays on the felt (the puck is on the board).
R.craps.spots = () => CrapsLayout.draw();
R.craps.felt = st => {
  const w = st.what_just_happened;
  return [el('div', { class: 'dice-tray' }, w ? dice(w.dice) : el('span', { class: 'small', text: 'Place a bet on the layout, then press Roll.' }),
    w ? el('div', { class: 'total', text: `Roll ${w.roll}: ${w.total}` }) : null,
    el('div', { class: 'point-text', text: st.puck === 'ON' ? `The point is ${st.table_point}` : 'Come-out roll: the puck is off' }))];
};
