// Shared by every player page: the API client, money, the header, cards and dice in SVG.
// No rules live here: the server's view and its `legal` list decide what is shown.
'use strict';

const Croupier = (() => {
  const SVG = 'http://www.w3.org/2000/svg';

  function money(cents, sign = false) {
    const neg = cents < 0;
    const abs = Math.abs(cents);
    const text = '$' + Math.floor(abs / 100).toLocaleString('en-US') + '.' + String(abs % 100).padStart(2, '0');
    if (neg) return '-' + text;
    return sign && cents > 0 ? '+' + text : text;
  }

  function el(tag, attrs = {}, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) e.append(c);
    return e;
  }

  function svg(tag, attrs = {}, ...children) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    for (const c of children.flat(Infinity)) if (c) e.append(c);
    return e;
  }

  class ApiError extends Error {
    constructor(status, code, message) { super(message); this.status = status; this.code = code; }
  }

  async function api(method, path, body, headers = {}) {
    const init = { method, headers: { ...headers }, credentials: 'same-origin' };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      throw new ApiError(0, 'network', 'the table cannot be reached: check the connection');
    }
    const type = r.headers.get('content-type') || '';
    const data = type.includes('json') ? await r.json() : await r.text();
    if (!r.ok) {
      const err = (data && data.error) || { code: 'http', message: `request failed (${r.status})` };
      throw new ApiError(r.status, err.code, err.message);
    }
    return data;
  }

  // The page's script and the floor bar both need the player's session: callers that ask
  // while one look is under way share it, so a fresh kiosk starts one session, not two, and
  // a button pressed before the page's own start has finished waits for that start.
  let playerLook = null;

  async function lookUpPlayer() {
    try {
      return await api('GET', '/api/me');
    } catch (e) {
      if (e.status !== 401) throw e;
      await api('POST', '/api/players', { name: 'Guest' });
      return api('GET', '/api/me');
    }
  }

  function ensurePlayer() {
    if (!playerLook) playerLook = lookUpPlayer().finally(() => { playerLook = null; });
    return playerLook;
  }

  function setBalance(cents) {
    const b = document.getElementById('balance');
    if (b) { b.textContent = money(cents); b.dataset.cents = String(cents); }
  }

  // An error shown next to the control that caused it: kept as the control's selector so a
  // re-render (which replaces the control) puts it back beside the new one.
  let pinned = null;

  function anchorOf(at) {
    if (!at || !at.closest) return null;
    const c = at.closest('[data-bet], [data-decision], [id]');
    if (!c) return null;
    if (c.dataset.bet) return `[data-bet="${CSS.escape(c.dataset.bet)}"]`;
    if (c.id) return '#' + CSS.escape(c.id);
    return `[data-decision="${CSS.escape(c.dataset.decision)}"]`;
  }

  /** Put the pinned error back beside its control (call after every re-render). */
  function pinNotice() {
    document.querySelectorAll('.field-error').forEach(e => e.remove());
    if (!pinned) return;
    const target = document.querySelector(pinned.sel);
    if (!target) return;
    const box = el('div', { class: 'field-error', id: 'field-error', role: 'alert' }, pinned.text, ...(pinned.extra || []));
    const wrap = target.closest('.spot-wrap') || target;
    wrap.after(box);
  }

  /** Tell the player: beside ``at`` (the control that caused it) when given, else at the top.
   * ``extra``: nodes offered with the message (the cashier link under "insufficient balance"). */
  function notice(text, kind = 'error', at = null, extra = []) {
    const n = document.getElementById('notice');
    const sel = text && kind === 'error' ? anchorOf(at) : null;
    pinned = sel ? { sel, text, extra } : null;
    pinNotice();
    if (!n) return;
    const top = sel ? '' : (text || '');
    n.replaceChildren(top, ...(top ? extra : []));
    n.className = 'notice ' + kind;
    n.hidden = !top;
  }

  // --- the player's words -----------------------------------------------------
  const SUIT_WORD = { c: '♣', d: '♦', h: '♥', s: '♠' };

  /** A server text as a player reads it: amounts in dollars, seats numbered as shown (from 1),
   * cards as 10♠, bet names instead of their codes (``names``: code -> name). */
  function words(text, names = {}) {
    let t = String(text || '');
    t = t.replace(/(-?\d+) cents\b/g, (_, n) => money(Number(n)));
    t = t.replace(/\b([Ss])eat (\d+)\b/g, (_, s, n) => `${s}eat ${Number(n) + 1}`);
    t = t.replace(/\b([2-9TJQKA])([cdhs])\b/g, (_, r, s) => (RANKS[r] || r) + SUIT_WORD[s]);
    for (const [code, name] of Object.entries(names)) {
      if (!/[-_]/.test(code)) continue;  // one-word codes read as words already
      t = t.split(code).join(name);
    }
    return t.charAt(0).toUpperCase() + t.slice(1);
  }

  // --- cards ----------------------------------------------------------------
  const SUITS = { c: ['♣', 'black'], d: ['♦', 'red'], h: ['♥', 'red'], s: ['♠', 'black'] };
  const RANKS = { T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };

  /** One card as SVG: 'Ah', 'Td', 'X' (joker); null is a face-down card. */
  function card(code, opts = {}) {
    const s = svg('svg', { viewBox: '0 0 60 84', class: 'card' + (opts.selected ? ' selected' : ''), role: 'img' });
    if (!code) {
      s.setAttribute('aria-label', 'face-down card');
      s.dataset.card = 'back';
      s.append(svg('rect', { x: 1, y: 1, width: 58, height: 82, rx: 6, class: 'back' }),
        svg('rect', { x: 6, y: 6, width: 48, height: 72, rx: 4, class: 'back-inner' }));
      return s;
    }
    s.dataset.card = code;
    s.append(svg('rect', { x: 1, y: 1, width: 58, height: 82, rx: 6, class: 'face' }));
    if (code === 'X' || code === 'Jk') {
      s.setAttribute('aria-label', 'joker');
      const t = svg('text', { x: 30, y: 50, 'text-anchor': 'middle', class: 'joker' });
      t.textContent = 'JOKER';
      s.append(t);
      return s;
    }
    const rank = RANKS[code[0]] || code[0];
    const [sym, color] = SUITS[code[1]] || ['?', 'black'];
    s.setAttribute('aria-label', `${rank}${sym}`);
    const corner = svg('text', { x: 6, y: 20, class: 'pip ' + color });
    corner.textContent = rank;
    const small = svg('text', { x: 6, y: 36, class: 'pip small ' + color });
    small.textContent = sym;
    const big = svg('text', { x: 32, y: 64, 'text-anchor': 'middle', class: 'suit ' + color });
    big.textContent = sym;
    s.append(corner, small, big);
    return s;
  }

  function cards(list, opts = {}) {
    const box = el('div', { class: 'cards' });
    (list || []).forEach((c, i) => {
      const node = card(c, { selected: opts.selected && opts.selected.has(i) });
      if (opts.onclick && c) {  // a card to pick: a toggle button, by keyboard too
        node.classList.add('pickable');
        node.setAttribute('role', 'button');
        node.setAttribute('tabindex', '0');
        node.setAttribute('aria-pressed', opts.selected && opts.selected.has(i) ? 'true' : 'false');
        node.addEventListener('click', () => opts.onclick(i, c));
        node.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); opts.onclick(i, c); } });
      }
      box.append(node);
    });
    return box;
  }

  // --- dice -----------------------------------------------------------------
  const PIPS = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  };

  function die(face) {
    const s = svg('svg', { viewBox: '0 0 48 48', class: 'die', role: 'img', 'aria-label': `die showing ${face}` });
    s.dataset.face = String(face);
    s.append(svg('rect', { x: 2, y: 2, width: 44, height: 44, rx: 8, class: 'die-face' }));
    for (const [x, y] of PIPS[face] || []) s.append(svg('circle', { cx: x * 11 + 2, cy: y * 11 + 2, r: 4.2, class: 'die-pip' }));
    return s;
  }

  function dice(faces) { return el('div', { class: 'dice' }, (faces || []).map(die)); }

  function header(active) {
    const links = [['/', 'Lobby'], ['/history', 'History']];
    const nav = el('nav', {}, links.map(([href, text]) => el('a', { href, class: active === href ? 'active' : null, text })));
    return el('header', {},
      el('a', { href: '/', class: 'brand', text: 'CROUPIER' }), nav,
      el('span', { class: 'balance-box' }, 'Balance ', el('strong', { id: 'balance', class: 'balance', text: '…' })));
  }

  /** The test banner: shown on every player page while [rng] test_mode is on. */
  async function showTestMode() {
    const banner = document.getElementById('test-mode');
    if (!banner) return;
    try {
      const r = await fetch('/api/status', { credentials: 'same-origin' });
      if (r.ok) banner.hidden = !(await r.json()).test_mode;
    } catch (e) { /* the page's own requests report a lost connection */ }
  }

  function mountHeader(active) {
    document.body.prepend(header(active));
    showTestMode();
  }

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return 'k' + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  return { money, el, svg, api, ApiError, ensurePlayer, setBalance, notice, pinNotice, words, card, cards, die, dice, mountHeader, uuid };
})();
