// The video poker machine page (issue 16): Jacks or Better, Mystery Bonus Poker and
// European Slot Poker. No rules live here: the server's view says what the hand is, what
// the machine holds, what pays, and which decisions are open; this page draws it and
// sends the player's bet, holds and double-up calls.
'use strict';

(() => {
  const { el, money, api } = Croupier;
  const TABLE = decodeURIComponent(location.pathname.split('/').pop());
  const GLYPHS = {
    joker: '🃏', bell: '🔔', watermelon: '🍉', plum: '🟣', lemon: '🍋', bar: 'BAR', cherry: '🍒', diamond: '💎',
  };
  const S = { view: null, coins: 1, denom: 0, holds: new Set(), dealtGame: null, busy: false, title: '' };
  const $ = (id) => document.getElementById(id);

  // --- talking to the table ------------------------------------------------------------
  async function send(path, body) {
    if (S.busy) return;
    S.busy = true;
    document.body.classList.add('busy');
    Croupier.notice('');
    try {
      await api('POST', `/api/tables/${encodeURIComponent(TABLE)}/${path}`, body, { 'Idempotency-Key': Croupier.uuid() });
    } catch (e) {
      Croupier.notice(e.message);
    } finally {
      await refresh(false);
      S.busy = false;
      render();
      document.body.classList.remove('busy');
    }
  }

  async function refresh(draw = true) {
    try {
      S.view = await api('GET', `/api/tables/${encodeURIComponent(TABLE)}`);
      Croupier.setBalance(S.view.balance);
      if (draw) render();
    } catch (e) { Croupier.notice(e.message); }
  }

  const state = () => (S.view && S.view.state) || null;
  /** The hand now being played (null between hands). */
  function live() {
    const st = state();
    return st && !S.view.over && st.phase !== 'betting' ? st : null;
  }
  /** The machine's facts (pay table, values, coins): from the hand or the next one. */
  const machine = () => (S.view && (S.view.next || S.view.state)) || null;
  const legal = () => new Set((S.view && S.view.legal) || []);

  // --- the player's buttons ---------------------------------------------------------------
  function dealOrDraw() {
    const st = live();
    if (st && st.phase === 'holding') {
      const arg = [...S.holds].sort().map((i) => i + 1).join(' ');
      return send('actions', { seat: 0, kind: 'decide', decision: 'draw', arg });
    }
    if (st) return null;
    const bets = { [`coin-${S.denom}`]: S.coins * S.denom };
    return send('round', { seat: 0, bets, deal: true });
  }

  function decide(decision) { return send('actions', { seat: 0, kind: 'decide', decision }); }

  function toggleHold(i) {
    const st = live();
    if (!st || st.phase !== 'holding') return;
    if (S.holds.has(i)) S.holds.delete(i); else S.holds.add(i);
    render();
  }

  function cashOut() {
    if (live()) { Croupier.notice('Finish the hand before you cash out.'); return; }
    const floorButton = $('cash-out');  // the floor terminal's Cash out (a voucher)
    if (floorButton) floorButton.click();
  }

  // --- drawing ----------------------------------------------------------------------------
  function symbolCard(name, extra = '') {
    if (!name) return el('div', { class: 'vp-symbol back' + extra, role: 'img', 'aria-label': 'card to come' });
    return el('div', { class: 'vp-symbol' + extra, role: 'img', 'aria-label': name, dataset: { card: name } },
      el('span', { class: 'glyph', text: GLYPHS[name] || '?' }), el('span', { text: name }));
  }

  function drawCard(code, fruit) {
    return fruit ? symbolCard(code) : Croupier.card(code);
  }

  function renderCards(st, fruit) {
    const box = $('cards');
    box.replaceChildren();
    const holding = st && st.phase === 'holding' && !S.view.over;
    const auto = new Set(((st && st.auto_hold) || []).map((p) => p - 1));
    const shown = st && st.cards.length ? st.cards : [null, null, null, null, null];
    shown.forEach((code, i) => {
      const held = holding ? S.holds.has(i) : !!(st && st.held && st.held.includes(i + 1));
      const cardNode = drawCard(code, fruit);
      if (holding) cardNode.addEventListener('click', () => toggleHold(i));
      box.append(el('div', { class: 'vp-slot', dataset: { pos: String(i + 1) } },
        el('div', { class: 'auto', text: st && st.cards.length && auto.has(i) ? 'machine holds' : '' }),
        cardNode,
        el('button', {
          class: 'vp-hold', id: `hold-${i + 1}`, 'aria-pressed': held ? 'true' : 'false', disabled: !holding,
          onclick: () => toggleHold(i), text: held ? 'HELD' : 'HOLD',
        })));
    });
  }

  function renderPaytable(m, st) {
    const t = $('paytable');
    t.replaceChildren();
    const rows = (st && st.paytable) || m.paytable;
    const head = el('tr', {}, el('th', { text: 'Hand' }),
      Array.from({ length: m.max_coins }, (_, i) => el('th', { class: i + 1 === S.coins ? 'lit' : null, text: String(i + 1) })));
    t.append(el('thead', {}, head));
    const finished = st && (S.view.over || st.phase === 'double-up' || st.phase === 'double-up-card');
    const body = el('tbody');
    for (const r of rows) {
      const cls = [r.raised ? 'raised' : '', r.adjusted ? 'adjusted' : '', finished && st.line === r.hand ? 'win' : ''].join(' ').trim();
      body.append(el('tr', { class: cls || null, dataset: { hand: r.hand } }, el('td', { text: r.title }),
        r.pays.map((p, i) => el('td', { class: i + 1 === S.coins ? 'lit' : null, text: String(p) }))));
    }
    t.append(body);
  }

  function renderMystery(m, st) {
    const box = $('mystery');
    const mys = (st && st.mystery) || m.mystery;
    box.hidden = !mys;
    if (!mys) return;
    const stop = st && !S.view.over ? st.mystery && st.mystery.stop : (st && st.mystery && st.mystery.stop);
    $('reel').replaceChildren(...mys.strip.map((label) => el('span', { class: label === stop ? 'stop' : null, text: label })));
    $('mystery-stop').textContent = stop ? `Mystery Bonus this hand: ${stop}` : 'The reel spins when you deal.';
  }

  function deckLeft(m, st) {
    if (st && st.deck_left !== null && live()) return st.deck_left;
    const known = m.machines && m.machines[`${S.denom}x${S.coins}`];
    return known ? known.deck_left : m.deck_size;
  }

  function renderFruit(m, st) {
    const fruit = m.machine === 'fruit';
    $('deck-box').hidden = !fruit;
    $('fruit').hidden = !fruit;
    if (!fruit) return;
    $('deck-left').textContent = String(deckLeft(m, st));
    $('deck-size').textContent = String(m.deck_size);
    const known = (st && live() && st.fruit) || (m.machines && m.machines[`${S.denom}x${S.coins}`]);
    const collected = (known && known.collected) || [];
    const want = m.fruit.collect;
    $('fruit-collected').textContent = want.map((f) => `${f} ${collected.includes(f) ? '✔' : '–'}`).join(' · ');
    $('cherry-meter').textContent = `${(known && known.cherry) || 0} / ${m.fruit.cherry_hits}`;
  }

  function renderDouble(st) {
    const box = $('double-up');
    const du = st && st.double_up;
    const open = !!(du && (st.phase === 'double-up' || st.phase === 'double-up-card' || du.cards.length));
    box.hidden = !open;
    if (!open) return;
    $('du-risk').textContent = money(du.at_risk);
    $('du-banked').textContent = money(du.banked);
    $('du-wins').textContent = `${du.wins} of ${du.max_wins}`;
    $('du-high').textContent = String(du.high_left);
    $('du-low').textContent = String(du.low_left);
    $('du-cards').replaceChildren(...du.cards.map((c) =>
      el('div', { class: c.won ? 'won' : 'lost', title: `${c.call}: ${c.won ? 'won' : 'lost'}` }, symbolCard(c.card))));
    const can = legal();
    for (const d of ['high', 'low', 'half', 'collect']) $(d).disabled = S.busy || !can.has(d);
  }

  function renderMessage(st) {
    const msg = $('message');
    msg.className = 'vp-message';
    if (!st) { msg.textContent = 'Choose a credit value and bet, then Deal.'; return; }
    if (st.phase === 'holding' && !S.view.over) { msg.textContent = 'Hold the cards you keep, then Draw.'; return; }
    if (st.phase === 'double-up') {
      msg.textContent = `You win ${money(st.win)}: Collect, or call High or Low to double it.`;
      msg.classList.add('win');
      return;
    }
    if (S.view.over) {
      const paid = st.settlements.length ? st.settlements[0].returned : 0;
      const title = (st.paytable.find((r) => r.hand === st.line) || {}).title;
      const bonus = Object.keys(st.bonuses).map((k) => ` + ${k} bonus`).join('');
      msg.textContent = paid ? `${title || 'Win'}${bonus}: paid ${money(paid)}` : 'No win. Deal again.';
      if (paid) msg.classList.add('win');
      msg.dataset.paid = String(paid);
    }
  }

  function renderControls(m) {
    const st = live();
    const can = legal();
    const betting = !st;
    $('coins').textContent = String(S.coins);
    $('bet-money').textContent = money(S.coins * S.denom);
    $('denom-money').textContent = money(S.denom);
    const credits = Math.floor((S.view.balance || 0) / S.denom);
    $('credits').textContent = credits.toLocaleString('en-US');
    $('credits-money').textContent = money(S.view.balance || 0);
    const box = $('denoms');
    box.replaceChildren(...m.denominations.map((d) => el('button', {
      class: d === S.denom ? 'on' : null, dataset: { denom: String(d) }, disabled: !betting || S.busy,
      'aria-pressed': d === S.denom ? 'true' : 'false', text: money(d),
      onclick: () => { S.denom = d; render(); },
    })));
    $('bet-one').disabled = !betting || S.busy;
    $('bet-max').disabled = !betting || S.busy;
    const dd = $('deal-draw');
    dd.textContent = st && st.phase === 'holding' ? 'Draw' : 'Deal';
    dd.disabled = S.busy || (st ? !can.has('draw') : !can.has('place-bet'));
    document.body.dataset.phase = st ? st.phase : 'betting';
    document.body.dataset.over = String(!st);
  }

  function render() {
    const m = machine();
    if (!m) return;
    if (!S.denom) { S.denom = m.denominations[0]; S.coins = 1; }
    const st = state();
    const hand = live();
    if (hand) { S.coins = hand.coins; S.denom = hand.denomination; }
    if (hand && hand.phase === 'holding' && S.dealtGame !== S.view.game) {
      S.dealtGame = S.view.game;  // a new deal: the machine's hold is the starting hold
      S.holds = new Set(hand.auto_hold.map((p) => p - 1));
    }
    $('title').textContent = S.title || m.game;
    $('table-id').textContent = TABLE;
    renderPaytable(m, st);
    renderMystery(m, st);
    renderFruit(m, st);
    renderCards(st, m.machine === 'fruit');
    renderDouble(st);
    renderMessage(st);
    renderControls(m);
  }

  async function load() {
    Croupier.mountHeader('');
    $('bet-one').addEventListener('click', () => { const m = machine(); S.coins = S.coins % m.max_coins + 1; render(); });
    $('bet-max').addEventListener('click', () => { S.coins = machine().max_coins; render(); dealOrDraw(); });
    $('deal-draw').addEventListener('click', dealOrDraw);
    for (const d of ['high', 'low', 'half', 'collect']) $(d).addEventListener('click', () => decide(d));
    $('vp-cash-out').addEventListener('click', cashOut);
    try {
      const me = await Croupier.ensurePlayer();
      $('demo').hidden = !me.demo;
      const tables = await api('GET', '/api/tables');
      const meta = tables.find((t) => t.id === TABLE);
      if (!meta) { Croupier.notice(`There is no machine ${TABLE}.`); return; }
      S.title = meta.title;
      document.title = `Croupier – ${meta.title}`;
    } catch (e) { Croupier.notice(e.message); return; }
    await refresh();
  }

  document.addEventListener('DOMContentLoaded', load);
})();
