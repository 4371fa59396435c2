// The poker room page: seats around the table with stacks and bets, the button, the pots,
// the board, the player's own hole cards, the actions with their amounts, the clock and
// the result. No rules live here: the room's view (GET /api/rooms/{id}) and its
// `options` list (the engine's legal actions, with amounts) decide what is shown.
'use strict';

(() => {
  const { el, money, api, card } = Croupier;
  const TABLE = decodeURIComponent(location.pathname.split('/').pop());
  const WORDS = { fold: 'Fold', check: 'Check', call: 'Call', bet: 'Bet', raise: 'Raise to', complete: 'Complete to', 'bring-in': 'Bring in' };
  let view = null;
  let busy = false;
  let clockAt = 0; // when the view's clock figures were read (ms)

  function $(id) { return document.getElementById(id); }

  /** Where seat `i` of `n` sits around the oval (percent of the table's box). */
  function place(i, n, r = 1) {
    const a = Math.PI / 2 + (2 * Math.PI * i) / n; // seat 0 at the bottom, clockwise
    return [50 + 46 * r * Math.cos(a), 50 + 44 * r * Math.sin(a)];
  }

  function at(node, x, y) {
    node.style.setProperty('left', x + '%');
    node.style.setProperty('top', y + '%');
    return node;
  }

  function seatBox(i, n) {
    const seated = (view.players || []).find(p => p.seat === i);
    const dealt = ((view.state && view.state.seats) || []).find(s => s.seat === i);
    const st = view.state || {};
    const classes = ['room-seat'];
    if (!seated) classes.push('empty');
    if (seated && seated.you) classes.push('mine');
    if (dealt && st.to_act === i && !view.over) classes.push('to-act');
    if (dealt && dealt.folded) classes.push('folded');
    const box = el('div', { class: classes.join(' '), dataset: { seat: String(i) } });
    if (!seated) {
      box.append(el('div', { class: 'seat-name', text: `Seat ${i + 1}` }), el('div', { class: 'small', text: 'open' }));
      return at(box, ...place(i, n));
    }
    const stack = dealt && !view.over ? dealt.stack : seated.stack;
    box.append(el('div', { class: 'seat-name', text: seated.name || `Seat ${i + 1}` }),
      el('div', { class: 'seat-stack', dataset: { stack: String(stack) }, text: money(stack) }));
    if (dealt) {
      const shown = dealt.cards.map(c => c);
      for (let k = 0; k < dealt.hidden; k++) shown.push(null);
      box.append(Croupier.cards(shown));
      if (dealt.folded) box.append(el('div', { class: 'seat-tag', text: 'folded' }));
      else if (dealt.all_in) box.append(el('div', { class: 'seat-tag', text: 'all in' }));
    }
    if (seated.sitting_out) box.append(el('div', { class: 'seat-tag', text: 'sitting out' }));
    if (seated.clock !== null && seated.clock !== undefined && !view.over) {
      box.append(el('div', { class: 'seat-tag clock', dataset: { left: String(seated.clock) } }));
    }
    return at(box, ...place(i, n));
  }

  function renderTable() {
    const room = $('room');
    room.querySelectorAll('.room-seat, .room-bet, .room-button').forEach(x => x.remove());
    const n = view.room.seats;
    const st = view.state || {};
    for (let i = 0; i < n; i++) room.append(seatBox(i, n));
    for (const s of st.seats || []) {
      if (s.bet > 0 && !view.over) room.append(at(el('div', { class: 'room-bet', dataset: { seat: String(s.seat) }, text: money(s.bet) }), ...place(s.seat, n, 0.62)));
    }
    if (st.button !== null && st.button !== undefined) {
      const [x, y] = place(st.button, n, 0.74);
      room.append(at(el('div', { class: 'room-button', title: 'the button', 'aria-label': 'dealer button', text: 'D' }), x + 4, y));
    }
    const board = $('board');
    board.replaceChildren(...(st.board || []).map(c => card(c)));
    $('pots').replaceChildren(...potBoxes(st));
  }

  /** The pot(s) in the middle: the engine's main and side pots once a player is all in;
   *  otherwise one pot of the chips already pulled in (the bets in front stay in front). */
  function potBoxes(st) {
    const seats = st.seats || [];
    const box = (k, amount) => el('div', { class: 'room-pot', dataset: { pot: String(k) }, text: `${k ? 'Side pot ' + k : 'Pot'} ${money(amount)}` });
    if (seats.some(s => s.all_in) && (st.pots || []).length > 1) return st.pots.map((p, k) => box(k, p.amount));
    const middle = seats.reduce((sum, s) => sum + s.committed - (view.over ? 0 : s.bet), 0);
    return middle > 0 && !view.over ? [box(0, middle)] : [];
  }

  function option(o, all) {
    const same = all.filter(x => x.name === o.name).length > 1;
    let label = WORDS[o.name] || o.name;
    if (o.name === 'call' || o.name === 'bet' || o.name === 'bring-in') label += ' ' + money(o.add);
    else if (o.name === 'raise' || o.name === 'complete') label += ' ' + money(o.to);
    return el('button', {
      class: 'decision', dataset: { decision: o.name, to: String(o.to) }, disabled: busy,
      onclick: () => decide(o.name, same ? String(o.to) : ''), text: label,
    });
  }

  function renderControls() {
    const st = view.state || {};
    const mine = view.seat !== null && st.to_act === view.seat && !view.over;
    const opts = mine ? (st.options || []) : [];
    $('decisions').replaceChildren(...opts.map(o => option(o, opts)));
    const seated = view.seat !== null;
    $('buy-in').hidden = false;
    $('buy-seat').disabled = seated;
    $('buy-button').textContent = seated ? 'Add chips' : 'Buy in';
    const sel = $('buy-seat');
    const keep = sel.value;
    const open = [];
    for (let i = 0; i < view.room.seats; i++) {
      if (!(view.players || []).some(p => p.seat === i) || i === view.seat) open.push(i);
    }
    sel.replaceChildren(...open.map(i => el('option', { value: String(i), text: String(i + 1), selected: i === view.seat })));
    if (!seated && keep !== '' && open.includes(Number(keep))) sel.value = keep;
    if (!$('buy-amount').value) $('buy-amount').value = String(view.room.buy_in.minimum / 100);
    $('sit-out').hidden = !seated || view.sitting_out;
    $('come-back').hidden = !seated || !view.sitting_out;
    $('leave').hidden = !seated;
    $('my-seat').textContent = seated
      ? `Your seat ${view.seat + 1} · in front of you ${money(view.stack)} · wallet ${money(view.balance)}`
      : `Watching · wallet ${money(view.balance)} · buy in to play`;
  }

  function renderStatus() {
    const st = view.state || {};
    $('phase').textContent = !view.state ? 'waiting' : view.over ? 'hand over' : (st.phase || 'waiting');
    let text = '';
    if (!view.state || view.over) {
      const ready = (view.players || []).filter(p => !p.sitting_out && p.stack > 0).length;
      text = ready >= 2 ? 'The next hand is about to be dealt' : 'Waiting for players';
    } else if (st.to_act === view.seat) text = 'Your turn';
    else if (st.to_act !== null && st.to_act !== undefined) {
      const who = (view.players || []).find(p => p.seat === st.to_act);
      text = `${who ? who.name : 'Seat ' + (st.to_act + 1)} to act`;
    }
    $('status').textContent = text;
    const res = $('result');
    const lines = view.over && view.state ? (view.state.result || []) : [];
    res.hidden = !lines.length;
    // the engine counts seats from 0; the table shows them from 1, by their players' names
    const named = t => t.replace(/\bseat (\d+)\b/g, (m, n) => {
      const who = (view.players || []).find(p => p.seat === Number(n));
      return who && who.name ? who.name : `Seat ${Number(n) + 1}`;
    });
    res.replaceChildren(el('h3', { text: 'Result' }), el('ul', { class: 'pays' }, lines.map(t => el('li', { text: named(t) }))));
  }

  function tickClock() {
    const gone = (Date.now() - clockAt) / 1000;
    let mine = null;
    document.querySelectorAll('.room-seat .clock').forEach(c => {
      const left = Math.max(0, Math.ceil(Number(c.dataset.left) - gone));
      c.textContent = `${left}s`;
      if (c.closest('.room-seat').classList.contains('mine')) mine = left;
    });
    const box = $('clock');
    box.hidden = mine === null;
    if (mine !== null) box.textContent = `Time to act: ${mine}s`;
  }

  function render() {
    $('title').textContent = view.room.title;
    $('table-id').textContent = view.room.id;
    $('stakes').textContent = `${money(view.room.stakes.lower)}/${money(view.room.stakes.higher)} fixed limit`;
    $('buy-in-range').textContent = `buy-in ${money(view.room.buy_in.minimum)} – ${money(view.room.buy_in.maximum)}`;
    if (!$('notes').children.length) $('notes').replaceChildren(...(view.room.notes || []).map(t => el('li', { text: t })));
    Croupier.setBalance(view.balance);
    renderTable();
    renderControls();
    renderStatus();
    clockAt = Date.now();
    tickClock();
  }

  async function refresh() {
    try {
      view = await api('GET', `/api/rooms/${encodeURIComponent(TABLE)}`);
      render();
    } catch (e) { Croupier.notice(e.message); }
  }

  async function post(path, body, headers) {
    if (busy) return null;
    busy = true;
    document.body.classList.add('busy');
    try {
      const r = await api('POST', `/api/rooms/${encodeURIComponent(TABLE)}/${path}`, body, headers);
      Croupier.notice('');
      return r;
    } catch (e) {
      Croupier.notice(e.message);
      return null;
    } finally {
      busy = false;
      document.body.classList.remove('busy');
      await refresh();
    }
  }

  function decide(decision, arg) {
    return post('decide', { decision, arg }, { 'Idempotency-Key': Croupier.uuid() });
  }

  function buyIn(ev) {
    ev.preventDefault();
    const dollars = Number($('buy-amount').value);
    if (!Number.isInteger(dollars) || dollars <= 0) {
      Croupier.notice('the buy-in is a whole number of dollars');
      return;
    }
    post('buy-in', { seat: Number($('buy-seat').value), amount: dollars * 100 });
  }

  function follow() {
    const proto = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${proto}://${location.host}/api/ws/tables/${encodeURIComponent(TABLE)}`);
    ws.onmessage = m => { const msg = JSON.parse(m.data); if (msg.type !== 'ping') refresh(); };
    ws.onclose = () => setTimeout(follow, 2000);
  }

  async function start() {
    Croupier.mountHeader('');
    try {
      const me = await Croupier.ensurePlayer();
      $('demo').hidden = !me.demo;
    } catch (e) { Croupier.notice(e.message); return; }
    $('buy-in').addEventListener('submit', buyIn);
    $('sit-out').addEventListener('click', () => post('sit-out'));
    $('come-back').addEventListener('click', () => post('return'));
    $('leave').addEventListener('click', () => post('leave'));
    $('hands').href = `/api/rooms/${encodeURIComponent(TABLE)}/hands`;
    await refresh();
    follow();
    setInterval(tickClock, 500);
    setInterval(refresh, 5000); // a fallback when the WebSocket is away
  }

  document.addEventListener('DOMContentLoaded', start);
})();
