// The table page: the card renderers (baccarat, blackjack, war, and the generic one the
// poker families use: every list of cards in the view, the limits as spots).
'use strict';

/** Page 000, "Player as Dealer": the shoe the player is given, clicked for each card; the
 * card it gives moves to the hand that needs it (the view's next_card_to). */
function baccaratShoe(st) {
  if (!legal().includes('deal-card')) return null;
  const to = st.next_card_to === 'banker' ? 'Banker' : 'Player';
  return el('button', { class: 'shoe', id: 'shoe', dataset: { to: st.next_card_to || '' },
    'aria-label': `deal the next card, to the ${to}`, onclick: () => act({ kind: 'decide', decision: 'deal-card' }) },
  el('span', { class: 'shoe-body', 'aria-hidden': 'true' }, card(null)), el('span', { class: 'shoe-label', text: `Deal the next card · to the ${to}` }));
}

/** The hand's newest card slides in from the shoe when it was just dealt. */
function markDealt(box, name, list) {
  S.dealtSeen = S.dealtSeen || {};
  const key = `${S.game}:${name}`;
  const before = S.dealtSeen[key] || 0;
  S.dealtSeen[key] = (list || []).length;
  if ((list || []).length > before) box.querySelectorAll('svg.card').forEach((c, i) => { if (i >= before) c.classList.add('dealt-in'); });
  return box;
}

R.baccarat = {
  felt(st) {
    const out = [];
    out.push(el('div', { class: 'hands two' },
      markDealt(handBox('Player', st.player, st.player_score, { name: 'player', active: st.next_card_to === 'player' }), 'player', st.player),
      markDealt(handBox('Banker', st.banker, st.banker_score, { name: 'banker', active: st.next_card_to === 'banker' }), 'banker', st.banker)));
    const shoe = baccaratShoe(st);
    if (shoe) out.push(shoe);
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
