// The table page: the dice and wheel renderers (sic bo, craps, roulette).
'use strict';

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
