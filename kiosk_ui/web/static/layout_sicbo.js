// Sic bo drawn as its layout: Small and Big at the ends with the doubles, the triples and any
// triple between them, odd and even, the fourteen totals, the fifteen two-dice combinations
// and the six single numbers, each with its dice drawn. Wide (kiosk) and narrow (phone)
// geometries; the bet names are table_dice.js's (small, big, odd, even, total-N, double-N,
// triple-N, any-triple, combo-A-B, single-N).
'use strict';

const SicboLayout = (() => {
  const N = [1, 2, 3, 4, 5, 6];
  const COMBOS = [];
  for (let a = 1; a <= 6; a++) for (let b = a + 1; b <= 6; b++) COMBOS.push([a, b]);

  /** Cells in a row across [x0, x0 + w): [bet, weight, label, dice faces, opts]. */
  function row(x0, y, w, h, cells) {
    const total = cells.reduce((a, c) => a + c[1], 0);
    let x = x0;
    return cells.map(([bet, weight, label, faces, o]) => {
      const cw = w * weight / total;
      const sp = { bet, x, y, w: cw, h, label, faces, ...(o || {}) };
      x += cw;
      return sp;
    });
  }

  const doubles = ns => ns.map(n => [`double-${n}`, 1, '', [n, n], { name: `Double ${n}` }]);
  const triples = ns => ns.map(n => [`triple-${n}`, 1, '', [n, n, n], { name: `Triple ${n}` }]);
  const totals = ns => ns.map(n => [`total-${n}`, 1, String(n), null, { size: 26, lcls: 'lbl number', name: `Total ${n}` }]);
  const combos = list => list.map(([a, b]) => [`combo-${a}-${b}`, 1, '', [a, b], { name: `Combination ${a} and ${b}` }]);
  const singles = () => N.map(n => [`single-${n}`, 1, '', [n], { name: `Single number ${n}` }]);

  function wide() {
    const W = 1200;
    const spots = [
      ...row(0, 0, W, 120, [['small', 2.2, 'SMALL\n4 – 10', null, { size: 26, area: 'red' }], ...doubles([1, 2, 3]),
        ['any-triple', 1.8, 'ANY\nTRIPLE', null, { size: 20, area: 'field' }], ...doubles([4, 5, 6]), ['big', 2.2, 'BIG\n11 – 17', null, { size: 26, area: 'red' }]]),
      ...row(0, 120, W, 84, [['odd', 2, 'ODD', null, { size: 24 }], ...triples(N), ['even', 2, 'EVEN', null, { size: 24 }]]),
      ...row(0, 204, W, 96, totals(Array.from({ length: 14 }, (_, i) => i + 4))),
      ...row(0, 300, W, 100, combos(COMBOS)),
      ...row(0, 400, W, 96, singles()),
    ];
    return { W, H: 496, spots, geometry: 'wide', maxScale: 1.2 };
  }

  function narrow() {
    const W = 360;
    let y = 0;
    const spots = [];
    const add = (h, cells) => { spots.push(...row(0, y, W, h, cells)); y += h; };
    add(72, [['small', 1, 'SMALL 4 – 10', null, { size: 18, area: 'red' }], ['big', 1, 'BIG 11 – 17', null, { size: 18, area: 'red' }]]);
    add(56, [['odd', 1, 'ODD', null, { size: 18 }], ['any-triple', 1, 'ANY TRIPLE', null, { size: 16, area: 'field' }], ['even', 1, 'EVEN', null, { size: 18 }]]);
    add(60, doubles(N));
    add(60, triples(N));
    add(60, totals([4, 5, 6, 7, 8, 9, 10]));
    add(60, totals([11, 12, 13, 14, 15, 16, 17]));
    for (let i = 0; i < 15; i += 5) add(64, combos(COMBOS.slice(i, i + 5)));
    add(60, singles());
    return { W, H: y, spots, geometry: 'narrow', maxScale: 1.2 };
  }

  function draw() {
    const g = Board.room() >= 720 ? wide() : narrow();
    const art = [];
    for (const sp of g.spots) {
      if (!sp.faces) continue;
      const d = Math.min(30, sp.h * 0.42);
      art.push(...Board.diceArt(sp, sp.faces, d, sp.y + (sp.h - d) / 2));
    }
    return Board.board('sicbo', g.W, g.H, g.spots, art, { maxScale: g.maxScale, geometry: g.geometry });
  }

  return { draw, wide, narrow };
})();

R.sicbo.spots = () => SicboLayout.draw();
