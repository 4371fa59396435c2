// The table page's bet slip (loaded after table.js, whose state S and act() it uses).
'use strict';

// --- the bet slip: chips tapped build it in the page; Deal (Roll, Spin) posts it whole -------
// One request per round on POST .../round (every bet placed and the round dealt atomically,
// the path bench_kiosk.py measures), not one per chip. The server moves money at Deal, so the
// header shows the balance less the pending slip; a slip not yet posted is not on the table.

const TRIGGER = { roulette: 'spin', sicbo: 'roll' };
// Craps keeps a chip per request: its bets stay on the layout from roll to roll, what may be
// placed comes from the server's /spots, and the come-out options act on bets already down.
function slipMode() { return S.meta.family !== 'craps'; }
function slipTotal() { return Object.values(S.slip).reduce((a, v) => a + v, 0); }
function slipEmpty() { return !Object.keys(S.slip).length; }
/** The header's balance: the wallet less the chips on the slip. */
function showBalance(cents) {
  if (cents !== undefined && cents !== null) S.balance = cents;
  if (S.balance !== null) Croupier.setBalance(S.balance - slipTotal());
}

/** The refusal the server would give for ``amount`` more on ``bet`` (its limits, the balance),
 * checked at the tap so the reason shows beside the spot; the server checks again at Deal. */
function slipRefusal(adds) {
  for (const [bet, amount] of Object.entries(adds)) {
    const lim = S.meta.limits[bet];
    if (!lim) return { message: `no ${bet} bet at this table` };
    const total = (myBets()[bet] || 0) + amount;
    const refused = `${bet} bet of ${total} cents refused`;
    if (amount % lim.increment) return { message: `${refused}: bets go in steps of ${lim.increment} cents` };
    if (total < lim.minimum) return { message: `${refused}: the minimum bet is ${lim.minimum} cents` };
    if (total > lim.maximum) return { message: `${refused}: the maximum bet is ${lim.maximum} cents` };
  }
  const short = slipTotal() + Object.values(adds).reduce((a, v) => a + v, 0) - (S.balance || 0);
  if (short > 0) return { message: `insufficient balance: ${short} cents short`, code: 'insufficient-funds' };
  return null;
}

function addToSlip(bet, amount) { S.slip[bet] = (S.slip[bet] || 0) + amount; }
function takeFromSlip(bet, amount) {
  const left = (S.slip[bet] || 0) - amount;
  if (left > 0) S.slip[bet] = left; else delete S.slip[bet];
}

/** The spot a refused slip's reason names (the server's text starts with the bet's code). */
function spotNamed(message) {
  const text = String(message || '');
  let best = null;
  for (const bet of Object.keys(S.slip)) {
    const code = bet.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
    const at = text.search(new RegExp(`(^|[^\\w-])${code}([^\\w-]|$)`));
    if (at >= 0 && (!best || at < best.at)) best = { bet, at };
  }
  return best && document.querySelector(`#spots [data-bet="${CSS.escape(best.bet)}"]`);
}

/** Post the slip (``deal``: and deal the round) in one request; refused, nothing changes and
 * the slip stays for the player to mend. */
async function postSlip(deal) {
  const out = await act({ bets: { ...S.slip }, deal }, e => spotNamed(e.message), 'round');
  if (out) { S.slip = {}; S.stack = []; showBalance(); render(); }
  return out;
}
