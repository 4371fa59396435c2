// The table page by keyboard alone: focus kept in the action area across re-renders, and the
// bet spots and the chips each one Tab stop (arrow keys move inside them), so a round is a
// few keys (issue 17 point 12: one baccarat round took 38 Tab presses).
'use strict';

const Keys = (() => {
  const GROUPS = ['#spots', '#chips'];  // one Tab stop each: a roving tabindex
  const ITEMS = { '#spots': 'button.spot', '#chips': 'button.chip' };

  /** A selector that finds the same control after a re-render replaced it. */
  function keyOf(node) {
    if (!node || !node.closest || !node.closest('main')) return null;
    const ctl = node.closest('button, [role="button"], input, select, summary, a');
    if (!ctl) return null;
    if (ctl.id) return '#' + CSS.escape(ctl.id);
    if (ctl.dataset.bet) return `button[data-bet="${CSS.escape(ctl.dataset.bet)}"]`;
    if (ctl.dataset.decision) return `button[data-decision="${CSS.escape(ctl.dataset.decision)}"]` + (ctl.dataset.arg ? `[data-arg="${CSS.escape(ctl.dataset.arg)}"]` : '');
    if (ctl.dataset.value) return `button.chip[data-value="${CSS.escape(ctl.dataset.value)}"]`;
    const hand = ctl.closest('[data-hand]');
    if (hand && ctl.matches('svg.card')) return `[data-hand="${CSS.escape(hand.dataset.hand)}"] svg.card:nth-of-type(${[...hand.querySelectorAll('svg.card')].indexOf(ctl) + 1})`;
    return null;
  }

  const last = {};  // group -> the selector of its item last focused (its Tab stop)

  /** Make each group one Tab stop: its last focused item, else the first enabled one. */
  function rove() {
    for (const g of GROUPS) {
      const box = document.querySelector(g);
      if (!box) continue;
      const items = [...box.querySelectorAll(ITEMS[g])];
      const live = items.filter(b => !b.disabled);
      const cur = (last[g] && live.find(b => b.matches(last[g]))) || (g === '#chips' && live.find(b => b.classList.contains('selected'))) || live[0];
      for (const b of items) b.tabIndex = b === cur ? 0 : -1;
    }
  }

  /** Arrow keys, Home and End move inside a group (in its order on the page). */
  function onKey(g) {
    return (e) => {
      const moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -Infinity, End: Infinity };
      if (!(e.key in moves)) return;
      const live = [...document.querySelectorAll(`${g} ${ITEMS[g]}`)].filter(b => !b.disabled);
      const at = live.indexOf(document.activeElement);
      if (at < 0 || !live.length) return;
      e.preventDefault();
      const step = moves[e.key];
      const to = step === -Infinity ? 0 : step === Infinity ? live.length - 1 : Math.max(0, Math.min(live.length - 1, at + step));
      live.forEach(b => { b.tabIndex = -1; });
      live[to].tabIndex = 0;
      live[to].focus();
      last[g] = keyOf(live[to]);
    };
  }

  /** Where the player acts next: an offered decision, else Deal / Roll / Spin, else a spot. */
  function actionTarget() {
    const d = document.querySelector('#decisions button:not([disabled]):not(.standing):not(#deal):not(#roll):not(#spin)');
    if (d) return d;
    const go = document.querySelector('#deal:not([disabled]), #roll:not([disabled]), #spin:not([disabled])');
    if (go && S.view && S.view.state && !S.view.over) return go;  // a round in play (craps: roll on)
    return document.querySelector('#spots button.spot[tabindex="0"]:not([disabled])') || document.querySelector('#chips button.chip[tabindex="0"]');
  }

  /** Before a re-render: the focused control, if the page holds it. */
  function remember() {
    const a = document.activeElement;
    return { key: keyOf(a), inMain: !!(a && a !== document.body && a.closest && a.closest('main')), lost: !a || a === document.body };
  }

  /** After a re-render: focus the same control again; if it is gone (or the round moved on,
   * ``S.moveFocus``), the action area's next control. Focus never drops to the page top. */
  function restore(before) {
    rove();
    const moved = S.moveFocus;
    S.moveFocus = false;
    const same = before.key && document.querySelector(before.key);
    if (!moved && same && !same.disabled) { if (document.activeElement !== same) same.focus({ preventScroll: true }); return; }
    if (!before.inMain && !before.lost && !moved) return;  // the player is elsewhere (header, a dialog)
    const next = actionTarget();
    if (next && document.activeElement !== next) next.focus({ preventScroll: true });
  }

  function start() {
    for (const g of GROUPS) {
      const box = document.querySelector(g);
      if (box) box.addEventListener('keydown', onKey(g));
      if (box) box.addEventListener('focusin', (e) => { const k = keyOf(e.target); if (k && e.target.matches(ITEMS[g])) last[g] = k; });
    }
  }

  return { remember, restore, start, actionTarget };
})();
