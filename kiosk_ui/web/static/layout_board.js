// The drawn tables' shared parts: a board (an SVG drawing with a tap target per bet spot on
// it), chip stacks in their denominations, and the deal/roll animations of every table page.
// The layouts (layout_craps.js, layout_roulette.js, layout_sicbo.js) give the geometry; each
// tap calls table.js's placeChip/takeDown, the same action the spot buttons post, and what may
// be tapped comes from the server (the limits, canBet(), craps' /spots answer).
'use strict';

const Board = (() => {
  const { svg } = Croupier;
  const DENOMS = [50000, 10000, 2500, 500, 100];
  const state_ = { removing: false };

  /** The chips a stake is drawn with: the largest denominations first, odd cents as one chip. */
  function chipsFor(amount) {
    const out = [];
    let left = amount;
    for (const d of DENOMS) while (left >= d && out.length < 40) { out.push(d); left -= d; }
    if (left > 0) out.push(0);
    return out;
  }

  /** A stack of chips as SVG (at most 6 drawn; the stake label says the amount). */
  function chipStack(amount) {
    const list = chipsFor(amount).reverse().slice(-6);
    const h = 14 + list.length * 5;
    const s = svg('svg', { viewBox: `0 0 30 ${h}`, class: 'stack', 'aria-hidden': 'true', width: 30, height: h });
    list.forEach((d, i) => {
      const y = h - 8 - i * 5;
      s.append(svg('ellipse', { cx: 15, cy: y + 2, rx: 14, ry: 6, class: 'chip-edge d' + d }),
        svg('ellipse', { cx: 15, cy: y, rx: 14, ry: 6, class: 'chip-top d' + d }),
        svg('ellipse', { cx: 15, cy: y, rx: 8, ry: 3.2, class: 'chip-inlay' }));
    });
    return s;
  }

  function multiline(x, y, text, size, cls) {
    const lines = String(text).split('\n');
    const t = svg('text', { x, y: y - ((lines.length - 1) * size * 0.55), 'text-anchor': 'middle', 'dominant-baseline': 'middle', 'font-size': size, class: cls || 'lbl' });
    lines.forEach((line, i) => {
      const ts = svg('tspan', { x, dy: i ? size * 1.1 : 0 });
      ts.textContent = line;
      t.append(ts);
    });
    return t;
  }

  /** Dice drawn in an area (a hardway, a sic bo double or combination): `faces` side by side. */
  function diceArt(sp, faces, size, yFrom) {
    const d = Math.min(size, (sp.w - 8) / faces.length - 4);
    const total = faces.length * d + (faces.length - 1) * 4;
    return faces.map((f, i) => {
      const g = Croupier.die(f);
      g.setAttribute('class', 'art-die');
      g.setAttribute('x', String(sp.x + (sp.w - total) / 2 + i * (d + 4)));
      g.setAttribute('y', String(yFrom === undefined ? sp.y + sp.h - d - 6 : yFrom));
      g.setAttribute('width', String(d));
      g.setAttribute('height', String(d));
      return g;
    });
  }

  /** Is a spot tappable now: placeable (or, taking bets down, removable) by the server's word. */
  function tappable(bet) {
    const amount = myBets()[bet] || 0;
    if (!S.meta.limits[bet]) return false;
    if (state_.removing) {
      if (!amount) return false;
      return S.spots && S.spots.removable ? S.spots.removable.includes(bet) : canBet();
    }
    if (S.spots && S.spots.placeable) return canBet() && S.spots.placeable.includes(bet);
    return canBet();
  }

  function tap(bet) {
    if (state_.removing) { state_.removing = false; takeDown(bet); } else placeChip(bet);
  }

  /** One tap target over the drawing: the same `.spot[data-bet]` button the other tables have. */
  function target(sp, W, H) {
    const amount = myBets()[sp.bet] || 0;
    const lim = S.meta.limits[sp.bet];
    const name = sp.name || betName(sp.bet);
    const b = Croupier.el('button', {
      class: 'spot board-spot' + (amount ? ' has-bet' : '') + (sp.cls ? ' ' + sp.cls : ''),
      dataset: { bet: sp.bet }, disabled: !tappable(sp.bet),
      'aria-label': name + (lim ? `, ${money(lim.minimum)} to ${money(lim.maximum)}` : '') + (amount ? `, ${money(amount)} on it` : ''),
      onclick: () => tap(sp.bet),
    }, amount ? chipStack(amount) : null, amount ? Croupier.el('span', { class: 'stake', text: money(amount) }) : null);
    b.style.left = (100 * sp.x / W) + '%';
    b.style.top = (100 * sp.y / H) + '%';
    b.style.width = (100 * sp.w / W) + '%';
    b.style.height = (100 * sp.h / H) + '%';
    return b;
  }

  /**
   * A drawn board: `spots` are {bet, x, y, w, h, label, size, cls, art} in the drawing's units
   * (W x H); `art` is extra SVG drawn under the targets. `maxScale` caps px per unit.
   */
  function board(kind, W, H, spots, art, opts = {}) {
    const drawing = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board-art', 'aria-hidden': 'true', preserveAspectRatio: 'none' });
    drawing.append(svg('rect', { x: 0, y: 0, width: W, height: H, rx: opts.rx || 18, class: 'board-felt' }));
    for (const sp of spots) {
      if (sp.art === false) continue;
      drawing.append(svg('rect', { x: sp.x + 2, y: sp.y + 2, width: sp.w - 4, height: sp.h - 4, rx: sp.rx === undefined ? 8 : sp.rx, class: 'area ' + (sp.area || '') }));
      if (sp.label) drawing.append(multiline(sp.x + sp.w / 2, sp.y + sp.h / 2, sp.label, sp.size || 18, sp.lcls));
    }
    drawing.append(...(art || []));
    const box = Croupier.el('div', { class: 'board board-' + kind, dataset: { geometry: opts.geometry || '' } }, drawing);
    box.style.aspectRatio = `${W} / ${H}`;
    // As wide as the room allows, up to maxScale px per unit, and no taller than the screen
    // leaves under the page's top part (--board-reserve, per kiosk size in layout.css).
    const widest = opts.maxScale ? `${Math.round(W * opts.maxScale)}px` : '100%';
    box.style.width = `min(100%, ${widest}, calc((100vh - var(--board-reserve, 0px)) * ${(W / H).toFixed(4)}))`;
    box.append(...spots.filter(sp => sp.bet && S.meta.limits[sp.bet]).map(sp => target(sp, W, H)));
    if (opts.top && opts.top.length) {  // drawn over the targets (the puck, the winning number's marker)
      box.append(svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'board-art board-top', 'aria-hidden': 'true', preserveAspectRatio: 'none' }, ...opts.top));
    }
    const anyBet = Object.values(myBets()).some(v => v > 0);
    const remove = Croupier.el('button', {
      class: 'take-down-mode' + (state_.removing ? ' on' : ''), id: 'take-down-mode',
      'aria-pressed': state_.removing ? 'true' : 'false', disabled: !anyBet && !state_.removing,
      onclick: () => { state_.removing = !state_.removing; render(); },
      text: state_.removing ? 'Tap a bet to take it down (or tap here to cancel)' : 'Take a bet down',
    });
    return Croupier.el('div', { class: 'board-wrap' }, box, Croupier.el('div', { class: 'board-tools' }, remove));
  }

  /** The width the page gives the bet layout now (the geometry is picked from it). */
  function room() {
    const box = document.getElementById('spots');
    const w = box ? box.clientWidth - 24 : window.innerWidth;
    return w > 0 ? w : window.innerWidth;
  }

  // --- animations: cards come from the shoe, dice roll; the CSS honours prefers-reduced-motion.
  const seen = new Map();  // card key -> when it first appeared
  let diceKey = null;
  let diceAt = 0;
  let first = true;
  const DEAL_MS = 450;
  const ROLL_MS = 700;

  /** Count an animation started on the body (data-rolls, data-deals, data-spins): tests read it. */
  function count(name, n = 1) {
    document.body.dataset[name] = String(Number(document.body.dataset[name] || 0) + n);
  }

  /** Has the page drawn a view before this render (so what changes now is new, and moves)? */
  function ready() { return !first; }

  function animate() {
    const now = performance.now();
    const felt = document.getElementById('felt');
    if (!felt) return;
    const cardsNow = felt.querySelectorAll('svg.card');
    cardsNow.forEach((c, i) => {
      const hand = c.closest('[data-hand]');
      const box = c.parentElement;
      const key = `${S.game}|${hand ? hand.dataset.hand : ''}|${[...box.children].indexOf(c)}|${i}|${c.dataset.card}`;
      if (!seen.has(key)) { seen.set(key, first ? -1e9 : now); if (!first) count('deals'); }
      const age = now - seen.get(key);
      if (age < DEAL_MS && !c.classList.contains('deal-in')) {
        c.classList.add('deal-in');
        c.style.animationDelay = `-${Math.round(age)}ms`;
      }
    });
    const dice = felt.querySelectorAll('svg.die');
    if (dice.length) {
      const st = (S.view && S.view.state) || {};
      const w = st.what_just_happened;
      const key = `${S.game}|${w ? w.roll : ''}|${[...dice].map(d => d.dataset.face).join('')}`;
      if (key !== diceKey) { diceKey = key; diceAt = first ? -1e9 : now; if (!first) count('rolls'); }
      const age = now - diceAt;
      if (age < ROLL_MS) dice.forEach((d, i) => {
        if (d.classList.contains('rolling')) return;
        d.classList.add('rolling');
        d.style.animationDelay = `-${Math.round(age)}ms`;
        d.style.setProperty('--i', String(i));
      });
    }
    if (seen.size > 400) {  // forget earlier games' cards (this game's stay: they must not deal again)
      for (const key of [...seen.keys()]) if (!key.startsWith(`${S.game}|`)) seen.delete(key);
    }
    if (S.view) first = false;
  }

  /** Chip stacks on the spots table.js draws (the card tables): one per spot with a stake. */
  function stackSpots() {
    document.querySelectorAll('#spots .spot:not(.board-spot) .stake').forEach(stake => {
      const btn = stake.closest('.spot');
      if (btn.querySelector('svg.stack')) return;
      const amount = myBets()[btn.dataset.bet] || 0;
      if (amount) btn.insertBefore(chipStack(amount), btn.firstChild);
    });
  }

  /** The viewport the page last drew for (tests wait for it after a resize). */
  function mark() { document.body.dataset.viewport = `${window.innerWidth}x${window.innerHeight}`; }

  function watch() {
    const main = document.querySelector('main');
    if (!main) return;
    let queued = false;
    new MutationObserver(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => { queued = false; if (S.meta) { animate(); stackSpots(); } });
    }).observe(main, { childList: true, subtree: true });
    // The geometry follows the room the page gives: redraw when it changes (rotation, resize).
    let last = 0;
    window.addEventListener('resize', () => {
      clearTimeout(last);
      last = setTimeout(() => { if (S.meta && S.view !== null) render(); mark(); }, 150);
    });
    mark();
  }

  document.addEventListener('DOMContentLoaded', watch);
  return { board, chipStack, chipsFor, multiline, diceArt, room, tappable, count, ready, state: state_ };
})();
