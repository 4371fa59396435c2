// The table page's core: one page for every game family, with a renderer per family
// (R.<family>, in table_cards.js, table_paigow.js, table_dice.js; seat extras in table_extras.js).
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
// Standing orders and table options, decided between rounds: focus stays on them.
const STANDING = new Set(['always-contribute', 'jackpot-chip', 'clear-jackpot-chips', 'dealer', 'position']);
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
  meta: null, view: null, chip: 2500, busy: false, stack: [], game: null, slip: {}, balance: null,
  settled: [], selected: new Set(), spots: null, waiting: null, ws: null, poll: null, jackpots: [],
};

function betName(b) {
  if (BET_NAMES[b]) return BET_NAMES[b];
  return b.replace(/-/g, ' ').replace(/^\w/, c => c.toUpperCase());
}

function state() { return (S.view && S.view.state) || {}; }
// The game about to open once this one is over (what may be decided before betting), else this one.
function upcoming() { return (S.view && S.view.next) || state(); }

/** This seat's bets on the layout: the server's (placed and paid for) plus the bet slip's
 * pending chips, drawn on the same spots (a pending spot has the class ``pending``). */
function myBets() {
  const out = { ...serverBets() };
  for (const [b, v] of Object.entries(S.slip)) out[b] = (out[b] || 0) + v;
  return out;
}

/** This seat's bets the server holds, whatever shape the family's view has. */
function serverBets() {
  const st = state();
  if (!S.view || !S.view.state || S.view.over) return {};  // a finished round's bets are not on the table
  if (Array.isArray(st.seats) && st.seats[S.seat] && st.seats[S.seat].bets) return st.seats[S.seat].bets;
  const b = st.bets || {};
  if (b[String(S.seat)] && typeof b[String(S.seat)] === 'object') return b[String(S.seat)];
  if (Object.values(b).every(v => typeof v === 'number')) return b;
  return {};
}

function legal() { return (S.view && !S.view.suspended && S.view.legal) || []; }
function roundOver() { return !S.view || S.view.over || !S.view.state; }
// A seat with only a bet slip holds nothing on the layout, so the seat lifecycle may free it
// meanwhile: a free seat still takes chips, and the slip's Deal takes the seat again.
function mySeat() { return S.view && (S.view.seated || !(S.view.seats || {})[String(S.seat)]); }
function canBet() { return !(S.view && S.view.suspended) && legal().includes('place-bet') || (roundOver() && mySeat() && !S.view.suspended && !legal().includes('bank')); }

// --- talking to the table ----------------------------------------------------

async function act(body, at, route = 'actions') {
  if (S.busy) return null;
  const kind = route === 'round' ? (body.deal ? 'deal' : 'place-bet') : body.kind;
  S.busy = true;
  document.body.classList.add('busy');
  try {
    const out = await api('POST', `/api/tables/${encodeURIComponent(S.id)}/${route}`, { seat: S.seat, ...body },
      { 'idempotency-key': Croupier.uuid() });
    Croupier.notice('');
    if (out.game !== S.game) newGame(out.game, kind !== 'decide');
    else if (S.keptResult && kind !== 'decide') newGame(out.game, true);  // the first bet
    absorb(out.events);
    if (S.jackpots.some(m => m.tables.includes(S.id))) refreshJackpots();
    S.view = { ...out.view, seated: true, balance: out.balance };
    if (route === 'round') S.slip = {};  // posted: its chips are the server's bets now
    if (S.view.over) S.stack = S.stack.filter(c => !c.placed);  // settled: nothing to undo
    showBalance(out.balance);
    // The round moved on: focus goes to what comes next (not after a standing order's toggle).
    if (kind === 'deal' || (kind === 'decide' && !STANDING.has(body.decision))) S.moveFocus = true;
    await refreshSpots();
    render();
    return out;
  } catch (e) {
    const near = (typeof at === 'function' ? at(e) : at) || (document.activeElement && document.activeElement.closest('main') ? document.activeElement : null);
    S.lastError = playerText(e);
    Croupier.notice(S.lastError, 'error', near, cashierOffer(e));
    if (e.status === 423 || e.status === 409) await refresh();
    return null;
  } finally {
    S.busy = false;
    document.body.classList.remove('busy');
  }
}

/** A new game at the table: its chips and picks start empty; the last result stays on show
 * (``clearResult`` false) when the new game only holds a decision made before betting
 * (Always contribute, the bank), and goes with the first bet. */
function newGame(game, clearResult = true) {
  S.game = game; S.selected.clear();  // the slip (and its undo stack) waits for the next Deal
  S.keptResult = !clearResult;
  if (clearResult) { S.settled = []; S.collected = 0; }
}

/** Every bet code of this table -> its name, for the player's words. */
function betNames() { return Object.fromEntries(Object.keys((S.meta && S.meta.limits) || {}).map(b => [b, betName(b)])); }
/** A server text as the player reads it (dollars, seats from 1, cards, bet names). */
function say(text) { return Croupier.words(text, betNames()); }
function playerText(e) {
  if (e.code === 'table-suspended') return SUSPENDED_TEXT;  // not the operator's words or the table id
  if (e.status === 503) return 'The table cannot take bets for a moment: the staff has been told.';
  return say(e.message);
}

/** Under "insufficient balance": the way to add credit at this kiosk (the floor's Ticket in
 * when the terminal has it, else the cashier or an attendant). */
function cashierOffer(e) {
  if (e.code !== 'insufficient-funds') return [];
  const ticket = document.getElementById('ticket-in');
  if (ticket) return [' ', el('button', { class: 'cashier-offer', id: 'cashier-offer', onclick: () => ticket.click(), text: 'Add credit: ticket in' })];
  return [' ', el('span', { class: 'cashier-offer', id: 'cashier-offer', text: 'Add credit at the cashier or ask an attendant.' })];
}

function absorb(events) {
  for (const e of events || []) if (e.kind === 'bet-settled' && e.seat === S.seat) S.settled.push(e);
  for (const e of events || []) if (e.kind === 'collection-charged' && e.seat === S.seat) S.collected = e.amount;
}


async function refresh() {
  try {
    const v = await api('GET', `/api/tables/${encodeURIComponent(S.id)}?seat=${S.seat}`);
    if (v.game !== S.game) newGame(v.game, !S.game || !v.state || !!(v.state.bets && Object.keys(v.state.bets).length));
    S.view = v;
    if (v.over) S.stack = S.stack.filter(c => !c.placed);
    showBalance(v.balance);
    await refreshSpots();
    render();
  } catch (e) { Croupier.notice(playerText(e)); }
}

async function refreshSpots() {
  if (S.meta.family !== 'craps') return;
  try { S.spots = await api('GET', `/api/tables/${encodeURIComponent(S.id)}/spots?seat=${S.seat}`); } catch (e) { S.spots = null; }
}

// --- chips on spots: a matched bet (UTH's blind = the ante) goes on and off with its bet --

/** The bets that always equal ``bet`` (the table's `matched`: blind -> ante). */
function matchedTo(bet) { return Object.keys(S.meta.matched || {}).filter(m => S.meta.matched[m] === bet); }
/** A spot the player taps with a chip (not a bet placed by a decision, nor a matched one). */
function chipSpot(bet) { return (S.meta.chip_spots || Object.keys(S.meta.limits)).includes(bet) && !(S.meta.matched || {})[bet]; }

/** A chip tapped on ``bet``: onto the slip (with its matched bets), refused here with the
 * server's reason when it would break a limit or the balance. */
async function placeChip(bet, at) {
  if (!canBet()) return;
  if (!slipMode()) {  // craps: the chip goes on the layout now
    if (await act({ kind: 'place-bet', bet, amount: S.chip }, at)) S.stack.push({ bet, amount: S.chip, with: [], placed: true });
    render();
    return;
  }
  const adds = { [bet]: S.chip };
  for (const m of matchedTo(bet)) adds[m] = S.chip;
  const why = slipRefusal(adds);
  if (why) {
    S.lastError = say(why.message);
    Croupier.notice(S.lastError, 'error', at, cashierOffer(why));
    render();
    return;
  }
  Croupier.notice('');
  if (slipEmpty()) { S.settled = []; S.collected = 0; S.keptResult = false; }  // the next game's first chip
  for (const [b, v] of Object.entries(adds)) addToSlip(b, v);
  S.stack.push({ bet, amount: S.chip, with: matchedTo(bet) });
  showBalance();
  render();
}

async function undoChip() {
  const last = S.stack[S.stack.length - 1];
  if (!last) return;
  if (last.placed) {
    if (await act({ kind: 'remove-bet', bet: last.bet, amount: last.amount })) S.stack.pop();
    render();
    return;
  }
  S.stack.pop();
  for (const b of [last.bet, ...(last.with || [])]) takeFromSlip(b, last.amount);
  showBalance();
  render();
}

/** The × on a spot: its pending chips come off the slip; a bet the server holds comes down. */
async function takeDown(bet) {
  const riders = [bet, ...matchedTo(bet)];
  if (riders.some(b => S.slip[b])) {
    for (const b of riders) delete S.slip[b];
    showBalance();
  }
  S.stack = S.stack.filter(c => c.bet !== bet);
  for (const m of matchedTo(bet)) if (serverBets()[m] && !(await act({ kind: 'remove-bet', bet: m, amount: 0 }))) { render(); return; }
  if (serverBets()[bet]) await act({ kind: 'remove-bet', bet, amount: 0 });
  render();
}

async function clearBets() {
  S.slip = {}; S.stack = [];
  showBalance();
  const riders = Object.keys(S.meta.matched || {});  // matched bets come off before theirs
  const order = Object.keys(serverBets()).sort((a, b) => riders.includes(b) - riders.includes(a));
  for (const bet of order) {
    if (!serverBets()[bet] || bet === 'insurance') continue;
    if (!(await act({ kind: 'remove-bet', bet, amount: 0 }))) break;
  }
  render();
}

function saveRebet() {
  const bets = Object.fromEntries(Object.entries(myBets()).filter(([b, v]) => v > 0 && b !== 'insurance' && chipSpot(b)));
  if (Object.keys(bets).length) localStorage.setItem('rebet:' + S.id, JSON.stringify(bets));
}

/** The last round's bets back on the slip (as far as the limits and the balance allow). */
async function rebet() {
  const saved = JSON.parse(localStorage.getItem('rebet:' + S.id) || '{}');
  for (const [bet, amount] of Object.entries(saved)) {
    const adds = { [bet]: amount };
    for (const m of matchedTo(bet)) adds[m] = amount;
    if (!slipMode()) {
      if (!(await act({ kind: 'place-bet', bet, amount }))) break;
      S.stack.push({ bet, amount, with: [], placed: true });
      continue;
    }
    const why = slipRefusal(adds);
    if (why) { Croupier.notice(say(why.message), 'error', document.getElementById('rebet'), cashierOffer(why)); break; }
    for (const [b, v] of Object.entries(adds)) addToSlip(b, v);
    S.stack.push({ bet, amount, with: matchedTo(bet) });
  }
  showBalance();
  render();
}

async function start(kind) {
  saveRebet();
  if (!slipEmpty()) {  // the slip and Deal in one request; Roll and Spin follow their slip
    if (!(await postSlip(kind === 'deal')) || kind === 'deal') return;
  }
  if (kind === 'deal') await act({ kind: 'deal' });
  else await act({ kind: 'decide', decision: kind });
}

/** Give the seat up: freed now, or when the game holding its bets ends (it sits out meanwhile). */
async function leaveSeat() {
  try {
    const out = await api('POST', `/api/tables/${encodeURIComponent(S.id)}/leave?seat=${S.seat}`);
    Croupier.notice(out.freed === 'now' ? 'You left the seat.' : 'You leave the seat when this game ends; the house plays your hand by the rules meanwhile.', 'info');
    await refresh();
  } catch (e) { Croupier.notice(playerText(e)); }
}

function turnHand() {
  const t = state().turn;
  return t && typeof t === 'object' && typeof t.hand === 'number' ? t.hand : 0;
}

async function decide(decision, arg = '') {
  return act({ kind: 'decide', decision, arg, hand: turnHand() });
}

// --- rendering: shared parts -------------------------------------------------

function spot(bet, label, opts = {}) {
  const amount = myBets()[bet] || 0;
  const lim = S.meta.limits[bet];
  const tappable = chipSpot(bet);
  const enabled = tappable && (opts.enabled !== undefined ? opts.enabled : canBet());
  const pairedWith = (S.meta.matched || {})[bet];
  const how = pairedWith ? `always equals the ${betName(pairedWith)}: placed with it` : !tappable ? 'placed by your decision during the hand' : null;
  const b = el('button', {
    class: 'spot' + (amount ? ' has-bet' : '') + (S.slip[bet] ? ' pending' : '') + (opts.cls ? ' ' + opts.cls : '') + (tappable ? '' : ' by-decision'),
    dataset: { bet }, disabled: !enabled || !lim,
    title: how ? `${betName(bet)}: ${how}` : lim ? `${betName(bet)}: ${money(lim.minimum)} – ${money(lim.maximum)}, in ${money(lim.increment)}` : betName(bet),
    onclick: (ev) => placeChip(bet, ev.currentTarget),
  }, el('span', { class: 'spot-label', text: label || betName(bet) }),
  how ? el('span', { class: 'spot-how', text: pairedWith ? `= ${betName(pairedWith)}` : 'by decision' }) : null,
  amount ? el('span', { class: 'stake', text: money(amount) }) : null);
  const wrap = el('div', { class: 'spot-wrap' }, b);
  if (amount && canBet() && tappable) wrap.append(el('button', { class: 'take-down', title: `take the ${betName(bet)} bet down`, 'aria-label': `take down ${bet}`, text: '×', onclick: () => takeDown(bet) }));
  return wrap;
}

function handBox(label, list, extra, opts = {}) {
  return el('div', { class: 'hand' + (opts.active ? ' active' : ''), dataset: { hand: opts.name || label } },
    el('div', { class: 'hand-label' }, el('span', { text: label }), extra !== undefined && extra !== null ? el('span', { class: 'score', text: String(extra) }) : null),
    cards(list, opts.pick ? { selected: S.selected, onclick: opts.pick } : {}));
}

// What a player reads while the table is stopped: not the operator's or a device's reason.
const SUSPENDED_TEXT = 'Table closed for a moment: the staff will reopen it. Bets on the table stay yours.';

function statusLine() {
  const st = state();
  const v = S.view || {};
  if (v.suspended) return SUSPENDED_TEXT;
  if (S.waiting) return S.waiting;
  const next = st.next_card_to || st.waiting_for_card;
  if (next && legal().includes('deal-card')) return `Your deal: click the shoe for the next card (to the ${next})`;
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
  if (!slipEmpty()) { box.replaceChildren(); box.hidden = true; return; }  // the next game's chips: the last result goes
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
      e.note ? el('div', { class: 'note', text: say(e.note) }) : null));
  }
  if (S.collected) {  // the California collection the deal charged: part of the round's net
    total -= S.collected;
    list.append(el('li', { class: 'pay collection', dataset: { bet: 'collection' } },
      el('span', { text: 'Collection (charged at the deal)' }), el('strong', { class: 'lose', text: money(-S.collected, true) })));
  }
  const summary = st.result || st.summary || '';
  box.append(el('h3', {}, 'Result ', el('strong', { id: 'round-net', class: total > 0 ? 'win' : total < 0 ? 'lose' : '', text: money(total, true) })));
  if (summary) box.append(el('p', { text: say(summary) }));  // Element.append writes a null as "null"
  box.append(list);
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
  const l = [...legal()];
  const go = TRIGGER[S.meta.family] || 'deal';
  if (!slipEmpty() && canBet() && !l.includes(go)) l.unshift(go);  // the slip's Deal (Roll, Spin)
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
      box.append(el('button', { class: 'decision standing', id: 'always-contribute', dataset: { decision: d }, 'aria-pressed': on ? 'true' : 'false',
        onclick: () => decide(d, on ? 'off' : 'on'), text: `Always contribute: ${on ? 'on' : 'off'}` }));
    } else if (d === 'bank' && upcoming().player_dealer) {
      box.append(...playerDealerOffer());
    } else if (d === 'bank') {
      box.append(...paiGowBankOffer());
    } else if (d === 'set' && S.meta.family === 'pai_gow') {
      box.append(el('button', { class: 'decision', dataset: { decision: d }, disabled: S.selected.size !== 2, onclick: () => decide(d, paiGowSetting()), text: 'Set hands' }));
    } else if (d === 'draw' && state().draw_prices) {
      box.append(drawOffer());
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

/** Oasis Poker's bought draw: the cards picked are sent as their positions in the hand, and
 * the button names the price (view.draw_prices, cents per number of cards) before it is paid. */
function drawOffer() {
  const prices = state().draw_prices;
  const n = S.selected.size;
  const price = prices[String(n)];
  const positions = [...S.selected].sort((a, b) => a - b).join(' ');
  const text = !n ? 'Draw: select the cards to replace'
    : price === undefined ? `No draw of ${n} card${n > 1 ? 's' : ''} here`
    : `Draw ${n} card${n > 1 ? 's' : ''} for ${money(price)}`;
  const costs = Object.entries(prices).map(([k, v]) => `${k}: ${money(v)}`).join(', ');
  return el('button', { class: 'decision', id: 'draw', dataset: { decision: 'draw', price: price === undefined ? '' : String(price) },
    disabled: price === undefined, title: `draw prices by cards replaced: ${costs}`, onclick: async () => { if (await decide('draw', positions)) { S.selected.clear(); render(); } }, text });
}

/** The bank this seat put up (pai gow's banker, the California player/dealer), shown as a
 * spot with its amount: the money is on the table, as chips on a spot are. */
function bankSpot() {
  const st = upcoming();
  const pd = st.player_dealer;
  let amount = null;
  if (pd && pd.seat === S.seat) amount = pd.bank;
  else if (st.banker !== undefined && st.banker !== null && String(st.banker) === String(S.seat) && st.bank) amount = st.bank;
  if (amount === null || amount === undefined) return [];
  return [el('div', { class: 'spot-wrap bank-wrap' }, el('div', { class: 'spot wide has-bet bank-spot', id: 'bank-spot', role: 'group', 'aria-label': `your bank ${money(amount)}` },
    el('span', { class: 'spot-label', text: 'Your bank' }), el('span', { class: 'stake', text: money(amount) })))];
}

// --- renderers per family ----------------------------------------------------

let selectableCards = () => [];

const R = {};

function renderer() { return R[S.meta.family] || R.generic; }

function render() {
  const focus = Keys.remember();
  const v = S.view;
  const st = state();
  const r = renderer();
  if (r !== R.generic) selectableCards = () => [];
  document.getElementById('phase').textContent = v && v.suspended ? 'suspended' : (st.phase || (roundOver() ? 'betting' : ''));
  document.getElementById('status').textContent = statusLine();
  const felt = document.getElementById('felt');
  felt.replaceChildren(...(v && v.state ? (r.felt || R.generic.felt)(st) : [el('p', { class: 'small', text: 'No game yet. Choose a chip, click a bet spot, then Deal (Roll at the dice tables).' })]), ...playerDealerPanel());
  const spotsBox = document.getElementById('spots');
  spotsBox.replaceChildren(...bankSpot(), (r.spots || (() => el('div', { class: 'layout generic' }, Object.keys(S.meta.limits).map(b => spot(b)))))());
  document.getElementById('options').replaceChildren(...(r.options ? r.options() : []));
  document.getElementById('extra').replaceChildren(...(r.extra && v && v.state ? r.extra(st) : []));
  renderDecisions();
  renderChips();
  renderResult();
  renderCollection();
  renderJackpot();
  Croupier.pinNotice();
  const seats = (v && v.seats) || {};
  document.getElementById('seat-info').textContent = (v && v.per_player ? 'Your own game' : `Seat ${S.seat + 1} of ${S.meta.seats}`) +
    (Object.keys(seats).length > 1 ? ` (${Object.keys(seats).length} seated)` : '') +
    (v && v.sitting_out ? ' · sitting out (act to come back)' : '');
  const leave = document.getElementById('leave');
  if (leave) leave.hidden = !(v && v.seated) || !!(v && v.per_player);
  document.body.dataset.over = roundOver() ? 'true' : 'false';
  document.body.dataset.game = S.game || '';
  Keys.restore(focus);
  schedulePoll();
}

// Device tables and shared tables: follow the WebSocket; poll slowly while waiting as a fallback.
function schedulePoll() {
  clearTimeout(S.poll);
  const waitingOnOthers = S.view && !S.view.over && S.view.state && !legal().length;
  const live = S.ws && S.ws.readyState === 1;
  if (S.view && S.view.suspended && live) return;  // the resume comes over the WebSocket
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
    } else if (msg.type === 'suspended' || msg.type === 'resumed') {
      Croupier.notice('');  // the status line and the disabled spots say it
      refresh();
    }
  };
  ws.onclose = () => { S.ws = null; setTimeout(connect, 2000); };
}

async function main() {
  Croupier.mountHeader('');
  Keys.start();
  document.getElementById('undo').onclick = undoChip;
  document.getElementById('clear').onclick = clearBets;
  document.getElementById('rebet').onclick = rebet;
  document.querySelector('.rack-buttons').append(
    el('button', { id: 'leave', title: 'give this seat up for another player', text: 'Leave seat', hidden: true, onclick: leaveSeat }));
  try {
    const me = await Croupier.ensurePlayer();
    showBalance(me.balance);
    document.getElementById('demo').hidden = !me.demo;
    const tables = await api('GET', '/api/tables');
    S.meta = tables.find(t => t.id === S.id);
    if (!S.meta) { Croupier.notice('This table is not open. Go back to the lobby.'); return; }
    const smallest = Math.min(...Object.values(S.meta.limits).map(l => l.minimum));
    S.chip = CHIPS.find(c => c >= smallest) || CHIPS[0];
    document.title = `Croupier – ${S.meta.title}`;
    document.getElementById('title').textContent = S.meta.title;
    document.getElementById('family').textContent = S.meta.family.replace('_', ' ');
    document.getElementById('source').textContent = S.meta.source.startsWith('rng') ? 'Electronic table (random number generator)'
      : S.meta.family === 'baccarat' || S.meta.family === 'blackjack' ? 'Live table: cards from the shoe' : 'Live table';
    document.body.dataset.family = S.meta.family;
    document.getElementById('limits').replaceChildren(el('caption', { class: 'small', text: 'Table limits' }), ...Object.entries(S.meta.limits).map(([k, l]) =>
      el('tr', {}, el('td', { text: betName(k) }), el('td', { text: `${money(l.minimum)} – ${money(l.maximum)}` }), el('td', { text: `in steps of ${money(l.increment)}` }))));
    const rules = S.meta.house_rules || [];
    document.getElementById('notes').replaceChildren(...(rules.length ? rules : ['Ask an attendant for the rules of this table.']).map(n => el('li', { text: n })));
    try {
      await api('POST', `/api/tables/${encodeURIComponent(S.id)}/sit?seat=${S.seat}`);
    } catch (e) { Croupier.notice(playerText(e)); }
    await refresh();
    await refreshJackpots();
    if (S.jackpots.some(m => m.tables.includes(S.id))) setInterval(refreshJackpots, 3000);
    connect();
  } catch (e) { Croupier.notice(playerText(e)); }
}

// Every page script is loaded (table.html: this core first, then the renderers): start.
document.addEventListener('DOMContentLoaded', main);
