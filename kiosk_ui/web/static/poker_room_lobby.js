// The lobby's poker room rows: stakes, buy-in and the players seated, and "Play" opens the
// room's page (/room/{id}). Loaded by lobby.html after its own script; it decorates the
// tiles of the poker_room family once the lobby has drawn them.
'use strict';

(() => {
  const { el, money, api } = Croupier;

  function decorate(tile, room) {
    if (tile.dataset.room === 'done') return;
    tile.dataset.room = 'done';
    const seated = room.seated.length
      ? room.seated.map(p => `${p.name || 'Seat ' + (p.seat + 1)} (${money(p.stack)})`).join(', ')
      : 'nobody yet';
    const line = el('div', { class: 'room-row', dataset: { room: room.id } },
      el('div', { class: 'limits-line', text: `Stakes ${money(room.stakes.lower)}/${money(room.stakes.higher)} fixed limit · buy-in ${money(room.buy_in.minimum)} – ${money(room.buy_in.maximum)}` }),
      el('div', { class: 'small seated', text: `${room.seated.length} of ${room.seats} seated: ${seated}` }));
    const limits = tile.querySelector('.limits-line');
    if (limits) limits.replaceWith(line); else tile.append(line);
    tile.querySelectorAll('details, .seat-choice').forEach(x => x.remove());
    const play = tile.querySelector('button.primary');
    if (play) {
      const open = play.cloneNode(true); // the lobby's own handler opens /table/: not a room's page
      open.addEventListener('click', () => { location.href = `/room/${encodeURIComponent(room.id)}`; });
      play.replaceWith(open);
    }
  }

  async function run() {
    let rooms;
    try { rooms = await api('GET', '/api/rooms'); } catch (e) { return; }
    if (!rooms.length) return;
    const byId = Object.fromEntries(rooms.map(r => [r.id, r]));
    const apply = () => document.querySelectorAll('article.tile[data-family="poker_room"]').forEach(t => {
      const room = byId[t.dataset.table];
      if (room) decorate(t, room);
    });
    apply();
    new MutationObserver(apply).observe(document.getElementById('tables'), { childList: true, subtree: true });
  }

  run();
})();
