// The table page: what sits beside a family's renderer: the California collection and
// player/dealer, backline bets, the Caribbean Stud jackpot chip queue, progressive meters.
'use strict';

// The California collection (page 004, "paying the appropriate collection"): before the deal
// the fee the view says this seat's wagers will pay; once dealt, the fee the deal charged.
/** The fee the table's schedule charges a seat for ``wagers`` cents (collection.py's fee). */
function collectionFee(schedule, wagers) {
  if (wagers <= 0) return 0;
  const tier = schedule.tiers.find(([upTo]) => wagers <= upTo);
  return tier ? tier[1] : schedule.above;
}

function renderCollection() {
  const box = document.getElementById('collection');
  let due = S.view && S.view.collection;
  if (!box) return;
  if (S.meta.collection && !slipEmpty()) {  // the bet slip's fee, with the bets already down
    const wagers = Object.values(myBets()).reduce((a, v) => a + v, 0);
    due = { ...(due || {}), [String(S.seat)]: collectionFee(S.meta.collection, wagers) };
  }
  if (!due && !S.collected) { box.hidden = true; return; }
  box.hidden = false;
  const before = due && due[String(S.seat)];
  const fee = before !== undefined ? before : (S.collected || 0);
  box.dataset.when = before !== undefined ? 'before-deal' : 'charged';
  box.firstChild.textContent = before !== undefined || !S.collected ? 'Collection this hand: ' : 'Collection paid: ';
  document.getElementById('collection-fee').textContent = money(fee);
}

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

// --- the Caribbean Stud jackpot chip queue (page 001: "You can queue up to ten chips.") ---

const JACKPOT_QUEUE = new Set(['jackpot-chip', 'clear-jackpot-chips']);

/** The queued $1 chips (one taken per round for the jackpot bet) and the add / clear buttons. */
function jackpotQueueControls() {
  const queue = upcoming().jackpot_queue;
  if (!queue || typeof queue !== 'object') return [];
  const l = legal();
  const n = Number(queue[String(S.seat)] || 0);
  return [el('span', { class: 'jackpot-queue', id: 'jackpot-queue', dataset: { queued: String(n) }, text: `Jackpot chips queued: ${n} of 10` }),
    el('button', { class: 'decision standing', id: 'jackpot-chip', disabled: !l.includes('jackpot-chip'), title: 'queue one $1 chip: each round takes one for the jackpot bet',
      onclick: () => decide('jackpot-chip'), text: 'Queue a $1 jackpot chip' }),
    el('button', { class: 'decision standing', id: 'clear-jackpot-chips', disabled: !l.includes('clear-jackpot-chips'), title: 'take the queued chips back',
      onclick: () => decide('clear-jackpot-chips'), text: 'Clear the queue' })];
}

// The California Player/Dealer (page 004): the position offered in turn, the bank put up,
// the wagers it covers and those it returned (the view's `player_dealer`).
function playerDealerOffer() {
  S.bankInput = S.bankInput || {};
  const bankIn = el('input', { type: 'number', id: 'bank-amount', min: '1', step: '1', inputmode: 'numeric',
    value: S.bankInput.bank ?? String(Math.max(1, S.chip / 100)),  // the chip chosen, not the whole balance
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
  box.querySelector('.jp-name').textContent = 'Progressive jackpot';
  document.getElementById('jackpot-amount').textContent = meters.map(m => money(m.amount)).join(' · ');
}

// Progressive meters: read from the ledger after each change of the table, and every few seconds.
async function refreshJackpots() {
  try { S.jackpots = await api('GET', '/api/jackpots'); } catch (e) { S.jackpots = []; }
  renderJackpot();
}
