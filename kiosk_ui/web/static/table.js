// The table page: one page for every game family, with a renderer per family.
// What may be done comes only from the server: the view's `legal` list, the
// craps spots it reports, and its error messages (limits, increments, foul hands).
'use strict';

const { el, money, api, card, cards, dice } = Croupier;

const CHIPS = [100, 500, 2500, 10000, 50000];
const LABELS = {
  hit: 'Hit', stand: 'Stand', double: 'Double', split: 'Split', surrender: 'Surrender',
  insurance: 'Insurance', 'even-money': 'Even money', 'no-insurance': 'No insurance',
  war: 'Go to war', call: 'Call', fold: 'Fold', raise: 'Raise', check: 'Check', bet: 'Bet', play: 'Play',
  draw: 'Draw', discard: 'Discard', hold: 'Hold', 'house-way': 'House way', set: 'Set hands',
  'decline-bank': 'Decline the bank',
  continue: 'Continue', 'pull-back': 'Pull back', pull: 'Pull back', ride: 'Let it ride', 'let-it-ride': 'Let it ride', spin: 'Spin',
};
// Decisions that take the cards the player selected as their argument (pai gow, draw poker).
const CARD_ARG = new Set(['set', 'draw', 'discard', 'hold']);
const NOT_DECISIONS = new Set(['place-bet', 'remove-bet', 'deal', 'roll', 'spin', 'dealer', 'position',
  'come-out-on', 'come-out-off', 'deal-card']);
const BET_NAMES = {
  main: 'Bet', buster: 'Buster Bet', tie: 'Tie', player: 'Player', banker: 'Banker', dragon7: 'Dragon 7',
  panda8: 'Panda 8', bank: 'Bank', small: 'Small', big: 'Big', odd: 'Odd', even: 'Even', pass: 'Pass line',
  'dont-pass': "Don't pass", come: 'Come', 'dont-come': "Don't come", field: 'Field', 'pass-odds': 'Pass odds',
  'dont-pass-odds': "Don't pass odds", 'any-7': 'Any 7', 'any-craps': 'Any craps', horn: 'Horn', world: 'World',
  'any-11': 'Yo 11', 'crap-2': 'Aces 2', 'crap-3': 'Ace-deuce 3', 'crap-12': 'Boxcars 12', 'any-triple': 'Any triple',
  ante: 'Ante', blind: 'Blind', trips: 'Trips', 'pair-plus': 'Pair Plus', 'six-card': '6-Card Bonus',
};

const S = {
  id: decodeURIComponent(location.pathname.split('/').pop()),
  seat: Number(new URLSearchParams(location.search).get('seat') || 0),
  meta: null, view: null, chip: 2500, busy: false, stack: [], game: null,
  settled: [], selected: new Set(), spots: null, waiting: null, ws: null, poll: null, jackpots: [],
};

function betName(b) {
  if (BET_NAMES[b]) return BET_NAMES[b];
  return b.replace(/-/g, ' ').replace(/^\w/, c => c.toUpperCase());
}

function state() { return (S.view && S.view.state) || {}; }
// The game about to open once this one is over (what may be decided before betting), else this one.
function upcoming() { return (S.view && S.view.next) || state(); }

/** This seat's bets, whatever shape the family's view has. */
function myBets() {
  const st = state();
  if (!S.view || !S.view.state || S.view.over) return {};  // a finished round's bets are not on the table
  if (Array.isArray(st.seats) && st.seats[S.seat] && st.seats[S.seat].bets) return st.seats[S.seat].bets;
  const b = st.bets || {};
  if (b[String(S.seat)] && typeof b[String(S.seat)] === 'object') return b[String(S.seat)];
  if (Object.values(b).every(v => typeof v === 'number')) return b;
  return {};
}

function legal() { return (S.view && S.view.legal) || []; }
function roundOver() { return !S.view || S.view.over || !S.view.state; }
function canBet() { return legal().includes('place-bet') || (roundOver() && S.view && S.view.seated && !S.view.suspended && !legal().includes('bank')); }

// --- talking to the table ----------------------------------------------------

async function act(body) {
  if (S.busy) return null;
  S.busy = true;
  document.body.classList.add('busy');
  try {
    const out = await api('POST', `/api/tables/${encodeURIComponent(S.id)}/actions`, { seat: S.seat, ...body },
      { 'idempotency-key': Croupier.uuid() });
    Croupier.notice('');
    Croupier.setBalance(out.balance);
    if (out.game !== S.game) { S.game = out.game; S.stack = []; S.settled = []; S.collected = 0; S.selected.clear(); }
    absorb(out.events);
    if (S.jackpots.some(m => m.tables.includes(S.id))) refreshJackpots();
    S.view = { ...out.view, seated: true, balance: out.balance };
    await refreshSpots();
    render();
    return out;
  } catch (e) {
    Croupier.notice(e.message);
    if (e.status === 423 || e.status === 409) await refresh();
    return null;
  } finally {
    S.busy = false;
    document.body.classList.remove('busy');
  }
}

function absorb(events) {
  for (const e of events || []) if (e.kind === 'bet-settled' && e.seat === S.seat) S.settled.push(e);
  for (const e of events || []) if (e.kind === 'collection-charged' && e.seat === S.seat) S.collected = e.amount;
}

// The California collection (page 004, "paying the appropriate collection"): before the deal
// the fee the view says this seat's wagers will pay; once dealt, the fee the deal charged.
function renderCollection() {
  const box = document.getElementById('collection');
  const due = S.view && S.view.collection;
  if (!box) return;
  if (!due && !S.collected) { box.hidden = true; return; }
  box.hidden = false;
  const before = due && due[String(S.seat)];
  const fee = before !== undefined ? before : (S.collected || 0);
  box.dataset.when = before !== undefined ? 'before-deal' : 'charged';
  box.firstChild.textContent = before !== undefined || !S.collected ? 'Collection this hand: ' : 'Collection paid: ';
  document.getElementById('collection-fee').textContent = money(fee);
}

async function refresh() {
  try {
    const v = await api('GET', `/api/tables/${encodeURIComponent(S.id)}?seat=${S.seat}`);
    if (v.game !== S.game) { S.game = v.game; S.stack = []; S.settled = []; S.collected = 0; S.selected.clear(); }
    S.view = v;
    Croupier.setBalance(v.balance);
    await refreshSpots();
    render();
  } catch (e) { Croupier.notice(e.message); }
}

async function refreshSpots() {
  if (S.meta.family !== 'craps') return;
  try { S.spots = await api('GET', `/api/tables/${encodeURIComponent(S.id)}/spots?seat=${S.seat}`); } catch (e) { S.spots = null; }
}

async function placeChip(bet) {
  const out = await act({ kind: 'place-bet', bet, amount: S.chip });
  if (out) S.stack.push({ bet, amount: S.chip });
  render();
}

async function undoChip() {
  const last = S.stack[S.stack.length - 1];
  if (!last) return;
  const out = await act({ kind: 'remove-bet', bet: last.bet, amount: last.amount });
  if (out) S.stack.pop();
  render();
}

async function takeDown(bet) {
  const out = await act({ kind: 'remove-bet', bet, amount: 0 });
  if (out) S.stack = S.stack.filter(c => c.bet !== bet);
  render();
}

async function clearBets() {
  for (const bet of Object.keys(myBets())) {
    if (!myBets()[bet] || bet === 'insurance') continue;
    if (!(await act({ kind: 'remove-bet', bet, amount: 0 }))) break;
  }
  S.stack = [];
  render();
}

function saveRebet() {
  const bets = Object.fromEntries(Object.entries(myBets()).filter(([b, v]) => v > 0 && b !== 'insurance'));
  if (Object.keys(bets).length) localStorage.setItem('rebet:' + S.id, JSON.stringify(bets));
}

async function rebet() {
  const saved = JSON.parse(localStorage.getItem('rebet:' + S.id) || '{}');
  for (const [bet, amount] of Object.entries(saved)) {
    const out = await act({ kind: 'place-bet', bet, amount });
    if (!out) break;
    S.stack.push({ bet, amount });
  }
  render();
}

async function start(kind) {
  saveRebet();
  if (kind === 'deal') await act({ kind: 'deal' });
  else await act({ kind: 'decide', decision: kind });
}

/** Give the seat up: freed now, or when the game holding its bets ends (it sits out meanwhile). */
async function leaveSeat() {
  try {
    const out = await api('POST', `/api/tables/${encodeURIComponent(S.id)}/leave?seat=${S.seat}`);
    Croupier.notice(out.freed === 'now' ? 'You left the seat.' : 'You leave the seat when this game ends; the house plays your hand by the rules meanwhile.', 'info');
    await refresh();
  } catch (e) { Croupier.notice(e.message); }
}

function turnHand() {
  const t = state().turn;
  return t && typeof t === 'object' && typeof t.hand === 'number' ? t.hand : 0;
}

async function decide(decision, arg = '') {
  await act({ kind: 'decide', decision, arg, hand: turnHand() });
}

// --- rendering: shared parts -------------------------------------------------

function spot(bet, label, opts = {}) {
  const amount = myBets()[bet] || 0;
  const lim = S.meta.limits[bet];
  const enabled = opts.enabled !== undefined ? opts.enabled : canBet();
  const b = el('button', {
    class: 'spot' + (amount ? ' has-bet' : '') + (opts.cls ? ' ' + opts.cls : ''),
    dataset: { bet }, disabled: !enabled || !lim,
    title: lim ? `${betName(bet)}: ${money(lim.minimum)} – ${money(lim.maximum)}, in ${money(lim.increment)}` : betName(bet),
    onclick: () => placeChip(bet),
  }, el('span', { class: 'spot-label', text: label || betName(bet) }),
  amount ? el('span', { class: 'stake', text: money(amount) }) : null);
  const wrap = el('div', { class: 'spot-wrap' }, b);
  if (amount && canBet()) wrap.append(el('button', { class: 'take-down', title: `take the ${betName(bet)} bet down`, 'aria-label': `take down ${bet}`, text: '×', onclick: () => takeDown(bet) }));
  return wrap;
}

function handBox(label, list, extra, opts = {}) {
  return el('div', { class: 'hand' + (opts.active ? ' active' : ''), dataset: { hand: opts.name || label } },
    el('div', { class: 'hand-label' }, el('span', { text: label }), extra !== undefined && extra !== null ? el('span', { class: 'score', text: String(extra) }) : null),
    cards(list, opts.pick ? { selected: S.selected, onclick: opts.pick } : {}));
}

function statusLine() {
  const st = state();
  const v = S.view || {};
  if (v.suspended) return 'Table suspended: ' + v.suspended;
  if (S.waiting) return S.waiting;
  const next = st.next_card_to || st.waiting_for_card;
  if (next && S.meta.source !== 'rng' && !S.meta.source.startsWith('rng')) return `Waiting for card from the shoe (to ${next})…`;
  if (next) return `Dealing to ${next}…`;
  if (roundOver()) return Object.keys(myBets()).length && !v.over ? '' : 'Place your bets';
  const l = legal();
  if (l.some(d => !NOT_DECISIONS.has(d))) return 'Your decision';
  if (l.includes('deal') || l.includes('roll')) return 'Add bets or start the round';
  if (l.includes('place-bet')) return 'Place your bets';
  return 'Waiting for the table…';
}

function renderResult() {
  const box = document.getElementById('result');
  const st = state();
  let rows = S.settled.slice();
  const fromState = (st.settlements || st.results || []).filter(e => e.kind === 'bet-settled' && e.seat === S.seat);
  if (fromState.length && (!rows.length || S.view.over)) rows = fromState;
  box.replaceChildren();
  if (!rows.length) { box.hidden = true; return; }
  box.hidden = false;
  let total = 0;
  const list = el('ul', { class: 'pays' });
  for (const e of rows) {
    const net = e.returned - (e.commission || 0) - e.stake;
    total += net;
    const parts = [`${betName(e.bet)}: stake ${money(e.stake)}`, e.result];
    if (e.returned) parts.push(`pays back ${money(e.returned)}`);
    if (e.commission) parts.push(`less ${money(e.commission)} commission`);
    list.append(el('li', { class: 'pay ' + e.result, dataset: { bet: e.bet } },
      el('span', { text: parts.join(' · ') }), el('strong', { class: net > 0 ? 'win' : net < 0 ? 'lose' : '', text: money(net, true) }),
      e.note ? el('div', { class: 'note', text: e.note }) : null));
  }
  if (S.collected) {  // the California collection the deal charged: part of the round's net
    total -= S.collected;
    list.append(el('li', { class: 'pay collection', dataset: { bet: 'collection' } },
      el('span', { text: 'Collection (charged at the deal)' }), el('strong', { class: 'lose', text: money(-S.collected, true) })));
  }
  const summary = st.result || st.summary || '';
  box.append(el('h3', {}, 'Result ', el('strong', { id: 'round-net', class: total > 0 ? 'win' : total < 0 ? 'lose' : '', text: money(total, true) })),
    summary ? el('p', { text: summary }) : null, list);
}

function renderChips() {
  const box = document.getElementById('chips');
  box.replaceChildren(...CHIPS.map(v => el('button', {
    class: 'chip c' + v + (S.chip === v ? ' selected' : ''), dataset: { value: String(v) },
    'aria-pressed': S.chip === v ? 'true' : 'false', title: `select a ${money(v)} chip`,
    onclick: () => { S.chip = v; renderChips(); }, text: v >= 100 ? '$' + (v / 100) : money(v),
  })));
  const onTable = Object.entries(myBets()).reduce((a, [, v]) => a + (v || 0), 0);
  document.getElementById('on-table').textContent = money(onTable);
  const betting = canBet();
  document.getElementById('undo').disabled = !betting || !S.stack.length;
  document.getElementById('clear').disabled = !betting || !onTable;
  document.getElementById('rebet').disabled = !betting || !localStorage.getItem('rebet:' + S.id) || onTable > 0;
}

function renderDecisions() {
  const box = document.getElementById('decisions');
  box.replaceChildren();
  const l = legal();
  if (l.includes('deal')) box.append(el('button', { class: 'primary big', id: 'deal', onclick: () => start('deal'), text: 'Deal' }));
  if (l.includes('roll')) box.append(el('button', { class: 'primary big', id: 'roll', onclick: () => start('roll'), text: 'Roll' }));
  if (l.includes('spin')) box.append(el('button', { class: 'primary big', id: 'spin', onclick: () => start('spin'), text: 'Spin' }));
  const offers = (state().decisions && typeof state().decisions === 'object') ? state().decisions : {};
  for (const d of l) {
    if (NOT_DECISIONS.has(d) || paiGowOwnSet(d) || JACKPOT_QUEUE.has(d)) continue;
    const args = Array.isArray(offers[d]) ? offers[d] : null;
    if (args && args.length) {
      for (const a of args) box.append(el('button', { class: 'decision', dataset: { decision: d, arg: String(a) }, onclick: () => decide(d, String(a)), text: `${LABELS[d] || betName(d)} ${a}` }));
    } else if (d === 'always-contribute') {
      // Stud progressive: the seat's standing order to make the $1 jackpot bet every game.
      const on = (upcoming().always_contribute || []).includes(S.seat);
      box.append(el('button', { class: 'decision', id: 'always-contribute', dataset: { decision: d }, 'aria-pressed': on ? 'true' : 'false',
        onclick: () => decide(d, on ? 'off' : 'on'), text: `Always contribute: ${on ? 'on' : 'off'}` }));
    } else if (d === 'bank' && upcoming().player_dealer) {
      box.append(...playerDealerOffer());
    } else if (d === 'bank') {
      // Pai gow, page 002: take the bank with what it can pay; the house's wager against
      // it is at most your last wager against the house, or less, or none.
      const offer = Number(upcoming().house_wager_offer || 0);
      // What the player typed survives a re-render (a live update may redraw this box).
      S.bankInput = S.bankInput || {};
      const bankIn = el('input', { type: 'number', id: 'bank-amount', min: '1', step: '1', inputmode: 'numeric',
        value: S.bankInput.bank ?? String(Math.max(1, Math.floor(Number((S.view && S.view.balance) || 0) / 100))),
        oninput: (e) => { S.bankInput.bank = e.target.value; } });
      const houseIn = el('input', { type: 'number', id: 'house-wager', min: '0', max: String(offer / 100), step: '1', inputmode: 'numeric',
        value: S.bankInput.house ?? String(offer / 100), oninput: (e) => { S.bankInput.house = e.target.value; } });
      box.append(el('label', { class: 'bank-field' }, 'Bank $', bankIn),
        el('label', { class: 'bank-field' }, "House's wager $", houseIn),
        el('button', { class: 'decision', dataset: { decision: d },
          onclick: () => { S.bankInput = {}; decide(d, `${Math.round(Number(bankIn.value) * 100)} ${Math.round(Number(houseIn.value) * 100)}`); }, text: 'Take the bank' }));
    } else if (d === 'set' && S.meta.family === 'pai_gow') {
      box.append(el('button', { class: 'decision', dataset: { decision: d }, disabled: S.selected.size !== 2, onclick: () => decide(d, paiGowSetting()), text: 'Set hands' }));
    } else if (CARD_ARG.has(d)) {
      const picked = () => [...S.selected].map(i => selectableCards()[i]).filter(Boolean).join(' ');
      box.append(el('button', { class: 'decision', dataset: { decision: d }, onclick: () => decide(d, picked()), text: (LABELS[d] || betName(d)) + (S.selected.size ? ` (${S.selected.size} selected)` : '') }));
    } else {
      box.append(el('button', { class: 'decision', dataset: { decision: d }, onclick: () => decide(d), text: LABELS[d] || betName(d) }));
    }
  }
  box.append(...dragonDecisions(), ...jackpotQueueControls());
  if (!box.children.length && !roundOver()) box.append(el('span', { class: 'small', text: 'No decision for you right now.' }));
}

// --- dragon hands (the land pai gow table, page 001: "The extra hands are called "dragon" hands.") ---

/** The cards picked for the dragon hand's low hand (this game's; apart from the player's own). */
function dragonPicks() {
  if (!S.dragonSel || S.dragonSel.game !== S.game) S.dragonSel = { game: S.game, picked: new Set() };
  return S.dragonSel.picked;
}

/** The view's dragon hand while this seat has taken it and not set it yet. */
function myOpenDragon() {
  const d = state().dragon;
  return d && d.taker === S.seat && d.cards.length && !d.setting && state().phase === 'setting' ? d : null;
}

/** Once the player's own hand is set, its set/house-way/surrender buttons go (the dragon's stay). */
function paiGowOwnSet(d) {
  return S.meta.family === 'pai_gow' && ['set', 'house-way', 'surrender'].includes(d) && (state().set || []).includes(S.seat);
}

/** The dragon hand on the felt: the offer, its taker, its seven cards to the taker, its setting. */
function dragonFelt(st) {
  const d = st.dragon;
  if (!d) return [];
  const who = (s) => (s === S.seat ? 'you' : `seat ${s + 1}`);
  const out = [];
  if (d.offered_to !== null) out.push(el('p', { class: 'callout', id: 'dragon-offer', text: `The dragon hand is offered to ${who(d.offered_to)}: its wager is at most your own.` }));
  else if (d.taker !== null) out.push(el('p', { class: 'callout', id: 'dragon-taker', text: `Dragon hand: played by ${who(d.taker)} for ${money(d.wager)}.` }));
  if (d.setting) {
    const [lo, hi] = d.setting.split('|').map(h => h.trim().split(/\s+/).filter(Boolean));
    out.push(el('div', { class: 'hands two' }, handBox('Dragon low', lo, null, { name: 'dragon-low' }), handBox('Dragon high', hi, null, { name: 'dragon-high' })));
  } else if (d.cards.length) {
    const picked = dragonPicks();
    out.push(handBox('Your dragon hand: pick the two for its low hand', d.cards, `${picked.size}/2`, {
      name: 'dragon', pick: (i) => { if (picked.has(i)) picked.delete(i); else picked.add(i); render(); },
    }));
    // handBox marks picks from S.selected: mark the dragon's own picks instead.
    const box = out[out.length - 1];
    box.querySelectorAll('.card').forEach((c, i) => c.classList.toggle('selected', picked.has(i)));
  }
  return out;
}

/** The taker's dragon decisions: set it (the two picked cards low), the house way, or surrender. */
function dragonDecisions() {
  const d = myOpenDragon();
  if (!d) return [];
  const l = legal();
  const picked = dragonPicks();
  const setting = () => `${[...picked].map(i => d.cards[i]).join(' ')} | ${d.cards.filter((_, i) => !picked.has(i)).join(' ')}`;
  const send = (decision, arg = '') => act({ kind: 'decide', decision, arg, hand: 1 });
  const out = [el('button', { class: 'decision', id: 'dragon-set', disabled: picked.size !== 2, onclick: () => send('set', setting()), text: 'Set the dragon hand' })];
  if (l.includes('house-way')) out.push(el('button', { class: 'decision', id: 'dragon-house-way', onclick: () => send('house-way'), text: 'Dragon hand: house way' }));
  if (l.includes('surrender')) out.push(el('button', { class: 'decision', id: 'dragon-surrender', onclick: () => send('surrender'), text: 'Surrender the dragon wager' }));
  return out;
}

// --- the Caribbean Stud jackpot chip queue (page 001: "You can queue up to ten chips.") ---

const JACKPOT_QUEUE = new Set(['jackpot-chip', 'clear-jackpot-chips']);

/** The queued $1 chips (one taken per round for the jackpot bet) and the add / clear buttons. */
function jackpotQueueControls() {
  const queue = upcoming().jackpot_queue;
  if (!queue || typeof queue !== 'object') return [];
  const l = legal();
  const n = Number(queue[String(S.seat)] || 0);
  return [el('span', { class: 'jackpot-queue', id: 'jackpot-queue', dataset: { queued: String(n) }, text: `Jackpot chips queued: ${n} of 10` }),
    el('button', { class: 'decision', id: 'jackpot-chip', disabled: !l.includes('jackpot-chip'), title: 'queue one $1 chip: each round takes one for the jackpot bet',
      onclick: () => decide('jackpot-chip'), text: 'Queue a $1 jackpot chip' }),
    el('button', { class: 'decision', id: 'clear-jackpot-chips', disabled: !l.includes('clear-jackpot-chips'), title: 'take the queued chips back',
      onclick: () => decide('clear-jackpot-chips'), text: 'Clear the queue' })];
}

// The California Player/Dealer (page 004): the position offered in turn, the bank put up,
// the wagers it covers and those it returned (the view's `player_dealer`).
function playerDealerOffer() {
  S.bankInput = S.bankInput || {};
  const bankIn = el('input', { type: 'number', id: 'bank-amount', min: '1', step: '1', inputmode: 'numeric',
    value: S.bankInput.bank ?? String(Math.max(1, Math.floor(Number((S.view && S.view.balance) || 0) / 100))),
    oninput: (e) => { S.bankInput.bank = e.target.value; } });
  return [el('label', { class: 'bank-field' }, 'Bank $', bankIn),
    el('button', { class: 'decision', id: 'take-player-dealer', dataset: { decision: 'bank' },
      onclick: () => { S.bankInput = {}; decide('bank', String(Math.round(Number(bankIn.value) * 100))); }, text: 'Be the player/dealer' })];
}

function playerDealerPanel() {
  const pd = upcoming().player_dealer;
  if (!pd) return [];
  const seat = (s) => (s === S.seat ? 'you' : `seat ${s + 1}`);
  const named = (list) => list.map(([s, b]) => `${seat(s)} ${betName(b)}`).join(', ');
  let text;
  if (pd.seat !== null) {
    text = `Player/Dealer: ${seat(pd.seat)}, bank ${money(pd.bank)}.`;
    if (pd.covered.length) text += ` Covers ${named(pd.covered)}.`;
    if (pd.returned.length) text += ` Returned (not covered): ${named(pd.returned)}.`;
  } else if (pd.offered !== null) {
    text = `The player/dealer position (${pd.hands} hands) is offered to ${seat(pd.offered)}; the house banks if nobody takes it.`;
  } else {
    text = 'The house banks this hand.';
  }
  return [el('p', { class: 'callout', id: 'player-dealer', text })];
}

function renderJackpot() {
  const box = document.getElementById('jackpot');
  const meters = (S.jackpots || []).filter(m => m.tables.includes(S.id));
  if (!meters.length) { box.hidden = true; return; }
  box.hidden = false;
  box.querySelector('.jp-name').textContent = 'Progressive · ' + meters.map(m => m.meter).join(', ');
  document.getElementById('jackpot-amount').textContent = meters.map(m => money(m.amount)).join(' · ');
}

// Progressive meters: read from the ledger after each change of the table, and every few seconds.
async function refreshJackpots() {
  try { S.jackpots = await api('GET', '/api/jackpots'); } catch (e) { S.jackpots = []; }
  renderJackpot();
}

// --- renderers per family ----------------------------------------------------

let selectableCards = () => [];

const R = {};

R.baccarat = {
  felt(st) {
    const out = [];
    out.push(el('div', { class: 'hands two' },
      handBox('Player', st.player, st.player_score, { name: 'player', active: st.next_card_to === 'player' }),
      handBox('Banker', st.banker, st.banker_score, { name: 'banker', active: st.next_card_to === 'banker' })));
    if (st.bank_seat !== null && st.bank_seat !== undefined) out.push(el('p', { class: 'small', text: `Seat ${st.bank_seat + 1} holds the bank this hand.` }));
    return out;
  },
  spots() {
    const st = state();
    return el('div', { class: 'layout baccarat' },
      Object.keys(S.meta.limits).filter(b => b !== 'bank' || st.bank_seat === S.seat).map(b => spot(b, null, { cls: 'wide' })));
  },
  options() {
    const l = legal();
    const st = state();
    const out = [];
    if (l.includes('dealer')) {
      out.push(el('div', { class: 'option' }, el('span', { text: 'Cards dealt by ' }),
        el('button', { class: st.dealer === 'banker' ? 'on' : '', onclick: () => decide('dealer', 'banker'), text: 'Banker' }),
        el('button', { class: st.dealer === 'player' ? 'on' : '', onclick: () => decide('dealer', 'player'), text: 'Me' })));
    }
    if (l.includes('position') && S.meta.seats > 1) {
      const sel = el('select', { 'aria-label': 'position', onchange: e => decide('position', e.target.value) },
        Array.from({ length: 7 }, (_, i) => el('option', { value: String(i + 1), selected: st.position === i + 1, text: `Position ${i + 1}` })));
      out.push(el('div', { class: 'option' }, sel));
    }
    return out;
  },
};

R.blackjack = {
  felt(st) {
    const d = st.dealer || { cards: [] };
    const hidden = (d.cards || []).some(c => c === null);
    const out = [handBox('Dealer', d.cards, d.cards && d.cards.length ? (hidden ? `${d.total} + ?` : d.total) : null, { name: 'dealer' })];
    const turn = st.turn;
    for (const s of st.seats || []) {
      if (!s.hands.length) continue;
      const mine = s.seat === S.seat;
      out.push(el('div', { class: 'hands' + (mine ? ' mine' : ' other') },
        s.hands.map(h => handBox(`${mine ? 'Your hand' : 'Seat ' + (s.seat + 1)}${s.hands.length > 1 ? ' ' + (h.hand + 1) : ''} · ${money(h.stake)}${h.doubled ? ' doubled' : ''}${h.result ? ' · ' + h.result : ''}`,
          h.cards, (h.soft ? 'soft ' : '') + h.total, { name: `seat${s.seat}.${h.hand}`, active: turn && turn.seat === s.seat && turn.hand === h.hand }))));
    }
    return out;
  },
  spots() {
    return el('div', { class: 'layout blackjack' }, Object.keys(S.meta.limits).map(b => spot(b, null, { cls: 'round' })));
  },
  extra(st) { return backlineSpots(st); },
};

// --- backline bets (21st Century Blackjack, page 004: "Multiple Players may bet on the same hand") ---

/** A backline spot behind every seat another player holds; the seated player makes every decision. */
function backlineSpots(st) {
  if (!Array.isArray(st.backline)) return [];  // this table takes no backline bets
  const seats = (S.view && S.view.seats) || {};
  const behind = (S.view && S.view.behind) || {};
  const open = st.phase === 'betting' || roundOver();
  const spots = Object.keys(seats).filter(k => seats[k] === 'taken').map(Number).sort((a, b) => a - b).map(seat => {
    const pos = behind[String(seat)];
    const mine = st.backline.find(b => b.position === pos && pos !== undefined && !roundOver());
    const label = `Behind seat ${seat + 1}` + (mine ? ` · ${money(mine.stake)}` : '');
    return el('div', { class: 'backline-spot', 'data-seat': String(seat) },
      el('span', { text: label }),
      el('button', { class: 'backline-bet', disabled: !open, onclick: () => betBehind(seat), text: `Bet ${money(S.chip)} behind` }),
      mine && open ? el('button', { class: 'backline-take', onclick: () => takeDownBehind(seat), text: 'Take down' }) : null);
  });
  const bets = st.backline.map(b => `seat ${b.seat + 1}: ${money(b.stake)}${b.position === behind[String(b.seat)] ? ' (yours)' : ''}${b.result ? ' · ' + b.result : ''}`);
  const out = [el('h3', { text: 'Backline' }),
    el('p', { class: 'small', text: 'Bet on another player\'s hand: the seated player makes every decision.' })];
  if (spots.length) out.push(el('div', { class: 'backline' }, spots));
  else out.push(el('p', { class: 'small', text: 'Nobody else is seated to bet behind.' }));
  if (bets.length) out.push(el('p', { class: 'small', id: 'backline-bets', text: 'Backline bets: ' + bets.join(' · ') }));
  return [el('div', { id: 'backline-box' }, out)];
}

async function betBehind(seat) {
  if (await act({ kind: 'place-bet', bet: 'main', amount: S.chip, seat, backline: true })) await refresh();
}

async function takeDownBehind(seat) {
  if (await act({ kind: 'remove-bet', bet: 'main', amount: 0, seat, backline: true })) await refresh();
}

R.war = {
  felt(st) {
    const mine = (st.cards || {})[String(S.seat)];
    const warMine = (st.war_cards || {})[String(S.seat)];
    const out = [el('div', { class: 'hands two' },
      handBox('Dealer', [st.dealer, st.dealer_war].filter(Boolean), null, { name: 'dealer' }),
      handBox('You', [mine, warMine].filter(Boolean), null, { name: 'player' }))];
    if (st.burned) out.push(el('p', { class: 'small', text: `${st.burned} card(s) burned before the war.` }));
    if ((st.deciding || []).includes(S.seat)) out.push(el('p', { class: 'callout', text: 'A tie! Go to war (raise equal to your bet) or surrender half your bet.' }));
    return out;
  },
  spots() {
    return el('div', { class: 'layout war' }, Object.keys(S.meta.limits).filter(b => b !== 'raise').map(b => spot(b, null, { cls: 'round' })));
  },
};

R.sicbo = {
  felt(st) {
    return [el('div', { class: 'dice-tray' }, st.dice ? dice(st.dice) : el('span', { class: 'small', text: 'Three dice are shaken when you press Roll.' }),
      st.dice ? el('div', { class: 'total', text: `Total ${st.dice.reduce((a, b) => a + b, 0)}` }) : null)];
  },
  spots() {
    const n = [1, 2, 3, 4, 5, 6];
    const row = (title, names, labels) => el('div', { class: 'row' }, el('div', { class: 'row-title', text: title }),
      el('div', { class: 'row-spots' }, names.map((b, i) => spot(b, labels ? labels[i] : null))));
    const combos = [];
    for (let a = 1; a <= 6; a++) for (let b = a + 1; b <= 6; b++) combos.push(`combo-${a}-${b}`);
    return el('div', { class: 'layout sicbo' },
      row('Big / Small', ['small', 'big', 'odd', 'even'], ['Small 4-10', 'Big 11-17', 'Odd', 'Even']),
      row('Totals', Array.from({ length: 14 }, (_, i) => `total-${i + 4}`), Array.from({ length: 14 }, (_, i) => String(i + 4))),
      row('Triples', [...n.map(x => `triple-${x}`), 'any-triple'], [...n.map(x => `${x}${x}${x}`), 'Any triple']),
      row('Doubles', n.map(x => `double-${x}`), n.map(x => `${x}${x}`)),
      row('Combinations', combos, combos.map(c => c.slice(6).replace('-', ' & '))),
      row('Single numbers', n.map(x => `single-${x}`), n.map(String)));
  },
};

R.craps = {
  felt(st) {
    const w = st.what_just_happened;
    const puck = el('div', { class: 'puck ' + (st.puck === 'ON' ? 'on' : 'off'), text: st.puck === 'ON' ? `ON ${st.table_point}` : 'OFF' });
    const out = [el('div', { class: 'dice-tray' }, puck, w ? dice(w.dice) : el('span', { class: 'small', text: 'Place a bet, then press Roll.' }),
      w ? el('div', { class: 'total', text: `Roll ${w.roll}: ${w.total}` }) : null,
      el('div', { class: 'small', text: `Game result ${money(st.game_result || 0, true)} · resolved stakes ${money(st.bet_amount || 0)}` }))];
    return out;
  },
  spots() {
    const ok = b => (S.spots && S.spots.placeable ? S.spots.placeable.includes(b) : canBet());
    const sp = (b, label, cls) => spot(b, label, { enabled: canBet() && ok(b), cls });
    const nums = [4, 5, 6, 8, 9, 10];
    const numRow = (title, kind) => el('tr', {}, el('th', { text: title }), nums.map(n => el('td', {}, S.meta.limits[`${kind}-${n}`] ? sp(`${kind}-${n}`, String(n)) : null)));
    return el('div', { class: 'layout craps' },
      el('table', { class: 'numbers' }, el('tr', {}, el('th'), nums.map(n => el('th', { text: String(n) }))),
        numRow('Come bets', 'come'), numRow('Come odds', 'come-odds'), numRow("Don't come", 'dont-come'), numRow("Don't come odds", 'dont-come-odds'),
        numRow('Place to win', 'place-win'), numRow('Place to lose', 'place-lose'), numRow('Buy', 'buy'), numRow('Lay', 'lay'), numRow('Hardways', 'hard')),
      el('div', { class: 'row-spots' }, sp('come', 'Come', 'wide'), sp('dont-come', "Don't come", 'wide'), sp('field', 'Field 2·3·4·9·10·11·12', 'wide'),
        sp('big-6', 'Big 6'), sp('big-8', 'Big 8')),
      el('div', { class: 'row-spots' }, sp('pass', 'Pass line', 'wide'), sp('pass-odds', 'Pass odds'), sp('dont-pass', "Don't pass bar 12", 'wide'), sp('dont-pass-odds', "Don't pass odds")),
      el('div', { class: 'row-spots props' }, ['any-7', 'any-craps', 'crap-2', 'crap-3', 'any-11', 'crap-12', 'horn', 'world'].map(b => sp(b))));
  },
  options() {
    const st = state();
    const l = legal();
    const out = [];
    if (st.working && (l.includes('come-out-on') || l.includes('come-out-off'))) {
      out.push(el('div', { class: 'option come-out' }, el('span', { class: 'opt-title', text: 'Come out options' }),
        Object.entries(st.working).map(([k, on]) => el('button', {
          class: 'toggle' + (on ? ' on' : ''), dataset: { type: k }, 'aria-pressed': on ? 'true' : 'false',
          title: `${betName(k)} bets ${on ? 'work' : 'are off'} on the come-out roll`,
          onclick: () => act({ kind: 'decide', decision: on ? 'come-out-off' : 'come-out-on', arg: k }),
          text: `${betName(k)}: ${on ? 'On' : 'Off'}`,
        }))));
    }
    return out;
  },
  extra(st) {
    const w = st.what_just_happened;
    const box = el('details', { class: 'wjh', open: true }, el('summary', { text: 'What just happened?' }));
    if (!w) { box.append(el('p', { class: 'small', text: 'Nothing yet: no roll in this game.' })); return [box]; }
    box.append(el('p', { text: `Roll ${w.roll}: ${w.dice.join(' + ')} = ${w.total}` + (w.come_out ? ' on the come-out.' : `, the point was ${w.point_before}.`) +
      (w.point_after !== w.point_before ? (w.point_after ? ` The table point is now ${w.point_after}.` : ' The point is off.') : '') }));
    if (!w.resolved.length) box.append(el('p', { class: 'small', text: 'None of your bets was decided by this roll.' }));
    const ul = el('ul', { class: 'pays' });
    for (const r of w.resolved) {
      ul.append(el('li', { class: 'pay ' + r.result }, el('span', { text: `${betName(r.bet)} ${money(r.stake)}: ${r.result}` + (r.win ? ` wins ${money(r.win)}` : '') + (r.commission ? ` less ${money(r.commission)} commission` : '') + (r.moved_to ? ` → moves to ${r.moved_to}` : '') }),
        el('div', { class: 'note', text: r.why })));
    }
    box.append(ul, el('p', { class: 'small', text: `Still on the table: ${money(w.bets_remaining)}` }));
    return [box];
  },
};

const REDS = new Set([1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36]);
function pocketColour(n) { return n === '0' || n === '00' ? 'green' : REDS.has(Number(n)) ? 'red' : 'black'; }

R.roulette = {
  felt(st) {
    const n = st.number;
    return [el('div', { class: 'dice-tray' },
      el('div', { class: 'wheel-number ' + (n ? pocketColour(n) : ''), dataset: { number: n || '' }, text: n || '–' }),
      el('div', { class: 'small', text: n ? `The ball landed on ${n} (${pocketColour(n)}).` : 'Place your chips, then Spin.' }))];
  },
  spots() {
    const has = b => !!S.meta.limits[b];
    const num = n => spot(`straight-${n}`, String(n), { cls: 'num ' + pocketColour(String(n)) });
    const zeros = ['0', '00'].filter(z => has(`straight-${z}`)).map(z => spot(`straight-${z}`, z, { cls: 'num green' }));
    const grid = el('div', { class: 'roulette-grid' });
    for (const row of [3, 2, 1]) {
      for (let c = 0; c < 12; c++) grid.append(num(c * 3 + row));
      grid.append(spot(`column-${row}`, '2 to 1', { cls: 'col' }));
    }
    const inside = Object.keys(S.meta.limits).filter(b => /^(split|corner|street|line|trio|top-line|basket)/.test(b));
    const sel = el('select', { 'aria-label': 'inside bet', id: 'inside-bet' }, inside.map(b => el('option', { value: b, text: betName(b) })));
    return el('div', { class: 'layout roulette' },
      el('div', { class: 'wheel-layout' }, el('div', { class: 'zeros' }, zeros), grid),
      el('div', { class: 'row-spots' }, ['dozen-1', 'dozen-2', 'dozen-3'].map((b, i) => spot(b, ['1st 12', '2nd 12', '3rd 12'][i], { cls: 'wide' }))),
      el('div', { class: 'row-spots' }, [['low', '1-18'], ['even', 'Even'], ['red', 'Red'], ['black', 'Black'], ['odd', 'Odd'], ['high', '19-36']].map(([b, l]) => spot(b, l, { cls: 'wide ' + (b === 'red' || b === 'black' ? b : '') }))),
      inside.length ? el('div', { class: 'option' }, el('span', { text: 'Splits, streets, corners, lines: ' }), sel,
        el('button', { disabled: !canBet(), onclick: () => placeChip(sel.value), text: 'Place chip' }),
        el('span', { class: 'small', text: Object.entries(myBets()).filter(([b]) => inside.includes(b)).map(([b, v]) => `${betName(b)} ${money(v)}`).join(', ') })) : null);
  },
};

/** Pai gow: pick the two cards of the low hand, then Set hands; or ask for the house way. */
R.pai_gow = {
  felt(st) {
    const out = [];
    const split = text => (text || '').split('|').map(h => h.trim().split(/\s+/).filter(Boolean));
    if (st.dealer) {
      const [lo, hi] = split(st.dealer);
      out.push(el('div', { class: 'hands two' }, handBox('Dealer low', lo, null, { name: 'dealer-low' }), handBox('Dealer high', hi, null, { name: 'dealer-high' })));
    } else if (st.dealer_cards) {
      out.push(handBox('Dealer', Array(st.dealer_cards).fill(null), null, { name: 'dealer' }));
    }
    const mine = (st.hands || {})[String(S.seat)];
    if (mine) {
      const [lo, hi] = split(mine);
      out.push(el('div', { class: 'hands two' }, handBox('Your low hand', lo, null, { name: 'low' }), handBox('Your high hand', hi, null, { name: 'high' })));
    } else if ((st.cards || []).length) {
      out.push(handBox('Your seven cards: pick the two for the low hand', st.cards, `${S.selected.size}/2`, {
        name: 'seven', pick: (i) => { if (S.selected.has(i)) S.selected.delete(i); else S.selected.add(i); render(); },
      }));
    }
    return out.concat(dragonFelt(st));
  },
};

function paiGowSetting() {
  const cardsNow = state().cards || [];
  const low = [...S.selected].map(i => cardsNow[i]);
  const high = cardsNow.filter((_, i) => !S.selected.has(i));
  return `${low.join(' ')} | ${high.join(' ')}`;
}

const HAND_NAMES = { hand: 'Your hand', dealer: 'Dealer', board: 'Board', cards: 'Your cards', player: 'Player', banker: 'Banker' };

/** Any family without its own renderer: every list of cards in the view, the limits as spots. */
R.generic = {
  felt(st) {
    const out = [];
    const found = [];
    const walk = (v, path) => {
      if (Array.isArray(v) && v.length && v.every(c => c === null || (typeof c === 'string' && /^([2-9TJQKA][cdhs]|X)$/.test(c)))) { found.push([path, v]); return; }
      if (v && typeof v === 'object' && !Array.isArray(v) && path.split('.').length < 4) for (const [k, x] of Object.entries(v)) if (k !== 'settlements' && k !== 'results') walk(x, path ? path + '.' + k : k);
    };
    walk(st, '');
    const mineIdx = [];
    for (const [path, shown] of found) {
      const dealt = st[path + '_cards_dealt'];
      const list = typeof dealt === 'number' && dealt > shown.length ? [...shown, ...Array(dealt - shown.length).fill(null)] : shown;
      const mine = /(^|\.)(player|hand|cards|hole|you|seats\.\d+)/.test(path) && !/dealer|board|community/.test(path);
      if (mine) mineIdx.push(...list);
      const offset = mine ? mineIdx.length - list.length : -1;
      out.push(handBox(HAND_NAMES[path] || path.replace(/\./g, ' · ') || 'cards', list, null, {
        name: path,
        pick: mine ? (i) => { const k = offset + i; if (S.selected.has(k)) S.selected.delete(k); else S.selected.add(k); render(); } : null,
      }));
    }
    selectableCards = () => mineIdx;
    for (const k of ['message', 'result', 'foul', 'house_way', 'hand_rank', 'rank', 'low', 'high']) {
      if (typeof st[k] === 'string' && st[k]) out.push(el('p', { class: 'callout', text: st[k] }));
    }
    return out;
  },
};

function renderer() { return R[S.meta.family] || R.generic; }

function render() {
  const v = S.view;
  const st = state();
  const r = renderer();
  if (r !== R.generic) selectableCards = () => [];
  document.getElementById('phase').textContent = v && v.suspended ? 'suspended' : (st.phase || (roundOver() ? 'betting' : ''));
  document.getElementById('status').textContent = statusLine();
  const felt = document.getElementById('felt');
  felt.replaceChildren(...(v && v.state ? (r.felt || R.generic.felt)(st) : [el('p', { class: 'small', text: 'No game yet. Choose a chip, click a bet spot, then Deal (Roll at the dice tables).' })]), ...playerDealerPanel());
  const spotsBox = document.getElementById('spots');
  spotsBox.replaceChildren((r.spots || (() => el('div', { class: 'layout generic' }, Object.keys(S.meta.limits).map(b => spot(b)))))());
  document.getElementById('options').replaceChildren(...(r.options ? r.options() : []));
  document.getElementById('extra').replaceChildren(...(r.extra && v && v.state ? r.extra(st) : []));
  renderDecisions();
  renderChips();
  renderResult();
  renderCollection();
  renderJackpot();
  const seats = (v && v.seats) || {};
  document.getElementById('seat-info').textContent = (v && v.per_player ? 'Your own game' : `Seat ${S.seat + 1} of ${S.meta.seats}`) +
    (Object.keys(seats).length > 1 ? ` (${Object.keys(seats).length} seated)` : '') +
    (v && v.sitting_out ? ' · sitting out (act to come back)' : '');
  const leave = document.getElementById('leave');
  if (leave) leave.hidden = !(v && v.seated) || !!(v && v.per_player);
  document.body.dataset.over = roundOver() ? 'true' : 'false';
  document.body.dataset.game = S.game || '';
  schedulePoll();
}

// Device tables and shared tables: follow the WebSocket; poll slowly while waiting as a fallback.
function schedulePoll() {
  clearTimeout(S.poll);
  const waitingOnOthers = S.view && !S.view.over && S.view.state && !legal().length;
  if (waitingOnOthers) S.poll = setTimeout(refresh, S.ws && S.ws.readyState === 1 ? 3000 : 800);
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/api/ws/tables/${encodeURIComponent(S.id)}`);
  S.ws = ws;
  ws.onmessage = ev => {
    const msg = JSON.parse(ev.data);
    if (msg.type === 'waiting') {
      S.waiting = msg.need === 'card' ? 'Waiting for card from the shoe…' : msg.need === 'dice' ? 'Waiting for the dice…' : `Waiting for the ${msg.need}…`;
      document.getElementById('status').textContent = S.waiting;
    } else if (msg.type === 'update') {
      S.waiting = null;
      // Our own actions' events came back with the response; a device table's cards come only here.
      if (!S.meta.source.startsWith('rng')) absorb(msg.events);
      if (!S.busy) refresh();
    } else if (msg.type === 'suspended') {
      Croupier.notice('Table suspended: ' + msg.reason);
      refresh();
    }
  };
  ws.onclose = () => { S.ws = null; setTimeout(connect, 2000); };
}

async function main() {
  Croupier.mountHeader('');
  document.getElementById('undo').onclick = undoChip;
  document.getElementById('clear').onclick = clearBets;
  document.getElementById('rebet').onclick = rebet;
  document.querySelector('.rack-buttons').append(
    el('button', { id: 'leave', title: 'give this seat up for another player', text: 'Leave seat', hidden: true, onclick: leaveSeat }));
  try {
    const me = await Croupier.ensurePlayer();
    Croupier.setBalance(me.balance);
    document.getElementById('demo').hidden = !me.demo;
    const tables = await api('GET', '/api/tables');
    S.meta = tables.find(t => t.id === S.id);
    if (!S.meta) { Croupier.notice(`There is no table ${S.id}. Go back to the lobby.`); return; }
    const smallest = Math.min(...Object.values(S.meta.limits).map(l => l.minimum));
    S.chip = CHIPS.find(c => c >= smallest) || CHIPS[0];
    document.title = `Croupier – ${S.meta.title}`;
    document.getElementById('title').textContent = S.meta.title;
    document.getElementById('family').textContent = S.meta.family.replace('_', ' ');
    document.getElementById('table-id').textContent = S.meta.id;
    document.getElementById('source').textContent = S.meta.source.startsWith('rng') ? 'RNG table' : 'Live table: ' + S.meta.source;
    document.body.dataset.family = S.meta.family;
    document.getElementById('limits').replaceChildren(...Object.entries(S.meta.limits).map(([k, l]) =>
      el('tr', {}, el('td', { text: betName(k) }), el('td', { text: `${money(l.minimum)} – ${money(l.maximum)}` }), el('td', { text: `in steps of ${money(l.increment)}` }))));
    document.getElementById('notes').replaceChildren(...S.meta.notes.map(n => el('li', { text: n })));
    try {
      await api('POST', `/api/tables/${encodeURIComponent(S.id)}/sit?seat=${S.seat}`);
    } catch (e) { Croupier.notice(e.message); }
    await refresh();
    await refreshJackpots();
    if (S.jackpots.some(m => m.tables.includes(S.id))) setInterval(refreshJackpots, 3000);
    connect();
  } catch (e) { Croupier.notice(e.message); }
}

main();
