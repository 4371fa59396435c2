// The table page: the pai gow renderer, its bank offer and the land table's dragon hands.
'use strict';

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

/** The pai gow bank offer: the bank to put up and the house's wager against it (decision `bank`). */
function paiGowBankOffer() {
  // Pai gow, page 002: take the bank with what it can pay; the house's wager against
  // it is at most your last wager against the house, or less, or none.
  const offer = Number(upcoming().house_wager_offer || 0);
  // What the player typed survives a re-render (a live update may redraw this box).
  S.bankInput = S.bankInput || {};
  const bankIn = el('input', { type: 'number', id: 'bank-amount', min: '1', step: '1', inputmode: 'numeric',
    value: S.bankInput.bank ?? String(Math.max(1, offer / 100, S.chip / 100)),  // not the whole balance
    oninput: (e) => { S.bankInput.bank = e.target.value; } });
  const houseIn = el('input', { type: 'number', id: 'house-wager', min: '0', max: String(offer / 100), step: '1', inputmode: 'numeric',
    value: S.bankInput.house ?? String(offer / 100), oninput: (e) => { S.bankInput.house = e.target.value; } });
  return [el('label', { class: 'bank-field' }, 'Bank $', bankIn),
    el('label', { class: 'bank-field' }, "House's wager $", houseIn),
    el('button', { class: 'decision', dataset: { decision: 'bank' },
      onclick: () => { S.bankInput = {}; decide('bank', `${Math.round(Number(bankIn.value) * 100)} ${Math.round(Number(houseIn.value) * 100)}`); }, text: 'Take the bank' })];
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
