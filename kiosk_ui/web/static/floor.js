// The floor terminal's controls on every player page: Cash out (a voucher), Ticket in,
// Call attendant, and the idle timer that brings the attract screen and ends the session.
// Loaded after common.js by lobby.html and table.html; it adds its own bar and dialogs.
// The validation number of a voucher is never put in a URL: the printed voucher travels
// to /voucher in sessionStorage and is removed when the player is done with it.
'use strict';

const Floor = (() => {
  const { el, money, api } = Croupier;
  const KIOSK_KEY = 'croupier.kiosk';
  const VOUCHER_KEY = 'croupier.voucher';
  let CONFIG = { name: '', idle_seconds: 120, at_idle: 'keep', voucher_days: 30 };
  let idleTimer = null;

  /** This terminal's name: its `?kiosk=` address once, kept for the next pages. */
  function kiosk() {
    const given = new URLSearchParams(location.search).get('kiosk');
    if (given && /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(given)) localStorage.setItem(KIOSK_KEY, given);
    return localStorage.getItem(KIOSK_KEY) || CONFIG.name;
  }

  function where() {
    const m = location.pathname.match(/^\/table\/(.+)$/);
    return m ? 'table ' + decodeURIComponent(m[1]) : 'lobby';
  }

  function say(box, text, kind = 'error') {
    box.textContent = text;
    box.className = 'floor-msg ' + kind;
    box.hidden = !text;
  }

  function printVoucher(voucher) {
    sessionStorage.setItem(VOUCHER_KEY, JSON.stringify(voucher));
    location.href = '/voucher';
  }

  // --- Cash out -------------------------------------------------------------------
  function cashOutDialog() {
    const msg = el('p', { class: 'floor-msg', role: 'alert', hidden: true });
    const amount = el('strong', { id: 'cashout-amount', text: '…' });
    const go = el('button', { class: 'primary big', id: 'cashout-confirm', type: 'button', text: 'Print voucher' });
    const d = el('dialog', { id: 'cashout-dialog', class: 'floor-dialog', 'aria-labelledby': 'cashout-title' },
      el('h2', { id: 'cashout-title', text: 'Cash out' }),
      el('p', {}, 'Your balance of ', amount, ' is printed on a voucher. Take it to any kiosk (Ticket in) or to the cage.'),
      el('p', { class: 'small', id: 'cashout-expiry' }),
      msg,
      el('div', { class: 'floor-actions' }, go,
        el('button', { type: 'button', class: 'big', onclick: () => d.close(), text: 'Cancel' })));
    go.addEventListener('click', async () => {
      go.disabled = true;
      try {
        const r = await api('POST', '/api/vouchers', { kiosk: kiosk() });
        printVoucher(r.voucher);
      } catch (e) { say(msg, e.code === 'voucher' ? 'There is nothing to cash out: your balance is $0.00.' : e.message); go.disabled = false; }
    });
    d.openWith = async () => {
      say(msg, '');
      go.disabled = false;
      $('cashout-expiry').textContent = `A voucher can be redeemed for ${CONFIG.voucher_days} days.`;
      try {
        const me = await api('GET', '/api/me');
        amount.textContent = money(me.balance);
        go.disabled = me.balance <= 0;
        if (me.balance <= 0) say(msg, 'There is nothing to cash out: your balance is $0.00.', 'info');
      } catch (e) { say(msg, e.message); }
      d.showModal();
    };
    return d;
  }

  // --- Ticket in ------------------------------------------------------------------
  function ticketInDialog() {
    const msg = el('p', { class: 'floor-msg', role: 'alert', hidden: true });
    const input = el('input', { id: 'ticket-number', inputmode: 'numeric', autocomplete: 'off', maxlength: '40', 'aria-describedby': 'ticket-help', required: true });
    const go = el('button', { class: 'primary big', id: 'ticket-confirm', type: 'submit', text: 'Redeem' });
    const form = el('form', { method: 'dialog' },
      el('label', { for: 'ticket-number', text: 'Validation number' }), input,
      el('p', { class: 'small', id: 'ticket-help', text: 'The 18 digits under the barcode (scan it, or type it: spaces are fine).' }),
      msg,
      el('div', { class: 'floor-actions' }, go, el('button', { type: 'button', class: 'big', onclick: () => d.close(), text: 'Close' })));
    const d = el('dialog', { id: 'ticket-dialog', class: 'floor-dialog', 'aria-labelledby': 'ticket-title' },
      el('h2', { id: 'ticket-title', text: 'Ticket in' }), form);
    form.addEventListener('submit', async ev => {
      ev.preventDefault();
      go.disabled = true;
      try {
        await Croupier.ensurePlayer(); // the ticket's credit needs the session the page may still be starting
        const r = await api('POST', '/api/vouchers/redeem', { number: input.value, kiosk: kiosk() });
        Croupier.setBalance(r.balance);
        input.value = '';
        say(msg, `${money(r.voucher.amount)} added. Your balance is ${money(r.balance)}.`, 'info');
        document.dispatchEvent(new CustomEvent('croupier:balance', { detail: r.balance }));
      } catch (e) { say(msg, e.message); }
      go.disabled = false;
      input.focus();
    });
    d.openWith = () => { say(msg, ''); d.showModal(); input.focus(); };
    return d;
  }

  // --- Call attendant -------------------------------------------------------------
  let callPoll = null;
  function showCall(btn, state, call) {
    const status = $('attendant-status');
    if (!call) {
      btn.textContent = 'Call attendant';
      btn.dataset.state = 'none';
      status.textContent = '';
      clearInterval(callPoll); callPoll = null;
      return;
    }
    btn.textContent = 'Cancel call';
    btn.dataset.state = call.state;
    status.textContent = call.state === 'acknowledged' ? 'An attendant is on the way.' : 'Attendant called: please wait here.';
    if (!callPoll) callPoll = setInterval(() => refreshCall(btn), 5000);
  }

  // Each attendant request is numbered: only the latest one's answer is shown, so the
  // mount's look, answered after a quick press, never wipes the call that press made.
  let callSeq = 0;

  async function refreshCall(btn) {
    const seq = ++callSeq;
    try { const r = await api('GET', '/api/attendant'); if (seq === callSeq) showCall(btn, null, r.call); } catch (e) { /* the next poll tries again */ }
  }

  async function toggleCall(btn) {
    const seq = ++callSeq;
    try {
      await Croupier.ensurePlayer(); // a press before the page has started its session waits for it
      const r = btn.dataset.state === 'none' || !btn.dataset.state
        ? await api('POST', '/api/attendant', { kiosk: kiosk(), where: where() })
        : await api('POST', '/api/attendant/cancel');
      if (seq === callSeq) showCall(btn, null, r.call);
    } catch (e) { Croupier.notice(e.message); }
  }

  // --- attract screen and the idle end of a session --------------------------------
  function attract() {
    const a = el('div', { id: 'attract', class: 'attract', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Touch to play', tabindex: '0' },
      el('div', { class: 'attract-title', text: 'CROUPIER' }),
      el('div', { class: 'attract-sub', text: 'Baccarat · Blackjack · Craps · Roulette · Poker · Sic Bo' }),
      el('div', { class: 'attract-cta', text: 'Touch anywhere to play' }));
    a.hidden = true;
    const wake = ev => { ev.preventDefault(); a.hidden = true; arm(); };
    a.addEventListener('pointerdown', wake);
    a.addEventListener('keydown', wake);
    return a;
  }

  async function onIdle() {
    try {
      const r = await api('POST', '/api/session/idle', { kiosk: kiosk() });
      if (r.voucher) { printVoucher(r.voucher); return; }
      if (r.in_play) { arm(); return; } // a bet is on a layout: stay, wait for the result
    } catch (e) { /* no session (or it ended): the lobby starts one on the next touch */ }
    if (location.pathname !== '/') { location.href = '/?attract=1'; return; }
    for (const d of document.querySelectorAll('dialog[open]')) d.close();
    const a = $('attract');
    a.hidden = false;
    a.focus();
  }

  function arm() {
    clearTimeout(idleTimer);
    if (!$('attract') || !$('attract').hidden) return;
    idleTimer = setTimeout(onIdle, CONFIG.idle_seconds * 1000);
  }

  const $ = id => document.getElementById(id);

  async function mount() {
    try { CONFIG = await api('GET', '/api/kiosk'); } catch (e) { /* defaults above */ }
    kiosk();
    const link = el('link', { rel: 'stylesheet', href: '/static/floor.css' });
    document.head.append(link);
    const cash = cashOutDialog(), ticket = ticketInDialog();
    const call = el('button', { id: 'call-attendant', type: 'button', text: 'Call attendant', dataset: { state: 'none' } });
    call.addEventListener('click', () => toggleCall(call));
    const bar = el('nav', { id: 'floor-bar', class: 'floor-bar', 'aria-label': 'Cashier and attendant' },
      el('button', { id: 'cash-out', type: 'button', onclick: () => cash.openWith(), text: 'Cash out' }),
      el('button', { id: 'ticket-in', type: 'button', onclick: () => ticket.openWith(), text: 'Ticket in' }),
      call, el('span', { id: 'attendant-status', class: 'attendant-status', role: 'status' }));
    document.body.append(cash, ticket, attract());
    placeBar(bar);
    for (const ev of ['pointerdown', 'keydown', 'wheel', 'touchstart']) document.addEventListener(ev, arm, { passive: true, capture: true });
    refreshCall(call);
    if (new URLSearchParams(location.search).get('attract') === '1') {
      history.replaceState(null, '', location.pathname);
      $('attract').hidden = false;
    } else arm();
  }

  /** The bar goes into the page's header (mounted by the page's own script, maybe after
   * this one runs); a page without a header gets it fixed in a corner. */
  function placeBar(bar) {
    const put = () => {
      const header = document.querySelector('body > header');
      if (!header) return false;
      bar.classList.add('in-header');
      header.append(bar);
      return true;
    };
    if (put()) return;
    const watch = new MutationObserver(() => { if (put()) watch.disconnect(); });
    watch.observe(document.body, { childList: true });
    setTimeout(() => {
      if (bar.isConnected) return;
      watch.disconnect();
      document.body.append(bar);
    }, 1500);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mount);
  else mount();
  return { kiosk, onIdle };
})();
