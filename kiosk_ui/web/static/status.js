// The technician's status page: devices, RNG and tables from GET /api/status (the same
// JSON stays there for machines), laid out as cards that wrap from a 375 px phone to a
// 1920 px screen. Nothing secret is shown (the API strips every URL query). On a shared
// store the Floor card lists every server of the floor (status.floor) with its health
// as it last answered, and says so of one that does not answer or is gone. Every string
// from a server goes in as text (el's textContent), never as markup.
'use strict';

const $ = id => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k === 'class') e.className = v; else if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) e.append(c);
  return e;
}

function stateClass(s) { return s === 'ok' ? 'ok' : s === 'degraded' || s === 'fallback' ? 'warn' : 'bad'; }
function pill(text, cls) { return el('span', { class: 'pill ' + cls, text }); }
function pairs(list) {
  return el('dl', {}, list.filter(([, v]) => v !== undefined && v !== null && v !== '').map(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v) })]));
}
function words(key) { return key.replace(/_/g, ' '); }
function counters(obj) { return Object.entries(obj || {}).map(([k, v]) => [words(k), v]); }

function device(d) {
  return el('section', { class: 'card', 'data-role': d.role },
    el('h3', {}, el('span', { text: d.role }), pill(d.state, stateClass(d.state))),
    pairs([['Device', d.url], ['Model', d.model], ['Serial', d.serial_number], ['Firmware', d.firmware],
      ['Last fault', d.last_fault || 'none'], ...counters(d.counters)]));
}

function source(s) {
  const h = s.health || {};
  const rows = [['State', s.state], ['Bytes read', s.bytes_read], ['Last error', s.last_error]];
  for (const [k, v] of Object.entries(h)) if (typeof v !== 'object') rows.push([words(k), v]);
  return el('section', { class: 'card', 'data-source': s.name || '' },
    el('h3', {}, el('span', { text: 'Source ' + (s.name || '') }), pill(s.state || '?', stateClass(s.state))), pairs(rows));
}

function rng(r) {
  const g = r.generator || {};
  return [el('section', { class: 'card', id: 'rng-main' },
    el('h3', {}, el('span', { text: 'Generator' }), pill(r.halted ? 'halted' : 'serving', r.halted ? 'bad' : 'ok')),
    pairs([['Policy', r.policy], ['Active source', r.active], ['Halted', r.halted || 'no'],
      ...Object.entries(g).filter(([, v]) => typeof v !== 'object').map(([k, v]) => [words(k), v])])),
  ...(r.sources || []).map(source)];
}

function when(iso) { return iso ? new Date(iso).toLocaleString('en-US', { hour12: false }) : null; }

function devicesLine(list) {
  if (!list || !list.length) return 'none configured';
  const bad = list.filter(d => d.state !== 'ok');
  if (!bad.length) return `${list.length} ok`;
  return bad.map(d => `${d.role}: ${d.state}` + (d.last_fault ? ` (${d.last_fault})` : '')).join('; ');
}

function tablesLine(names, health) {
  const suspended = Object.fromEntries(((health || {}).tables || []).filter(t => t.suspended).map(t => [t.id, t.suspended]));
  if (!names.length) return 'none';
  return names.map(t => suspended[t] ? `${t} (suspended: ${suspended[t]})` : t).join(', ');
}

function serverState(w) {
  const h = w.health;
  if (w.state !== 'serving') return [w.state, 'bad'];
  if (!h) return ['serving', 'warn'];
  const trouble = h.rng.state !== 'healthy' || h.store || (h.devices || []).some(d => d.state !== 'ok');
  return trouble ? ['alarm', h.rng.state === 'failed' || h.store ? 'bad' : 'warn'] : ['ok', 'ok'];
}

function server(w) {
  const h = w.health;
  const [label, cls] = serverState(w);
  const worker = w.worker === null || w.worker === undefined ? null : `worker ${w.worker}`;
  const name = w.here ? 'This server' + (worker ? ` · ${worker}` : '') : worker ? 'W' + worker.slice(1) : 'Server';
  const rows = [['Address', w.url || 'not advertised'], ['Holder', w.holder]];
  if (w.state === 'not answering') rows.push(['Not answering since', when(w.since)], ['Why', w.error]);
  if (w.state === 'stale') rows.push(['Gone since', when(w.since)], ['Why', w.error]);
  if (w.state === 'not asked yet') rows.push(['Health', 'not asked yet (it came up since the last poll)']);
  if (h) {
    const rng = h.rng;
    rows.push(['RNG', `${rng.state} (${rng.kind || '?'}: ${rng.source})`], ['RNG alarm', rng.alarm || 'none'],
      ['Devices', devicesLine(h.devices)], ['Store', h.store || 'ok']);
  } else if (w.state !== 'not asked yet') rows.push(['Health', 'unknown (it never answered)']);
  rows.push(['Tables served', tablesLine(w.tables || [], h)], ['Last seen', when(w.last_seen)]);
  if (!w.here && w.answered && w.state !== 'serving') rows.push(['Last answered', when(w.answered)]);
  if (h) rows.push(['Version', h.version], ['Started', when(h.started)]);
  return el('section', { class: 'card', 'data-holder': w.holder, 'data-state': w.state },
    el('h3', {}, el('span', { text: name }), pill(label, cls)), pairs(rows));
}

async function refresh() {
  let s;
  try {
    const r = await fetch('/api/status');
    if (!r.ok) throw new Error(`status ${r.status}`);
    s = await r.json();
  } catch (e) { $('updated').textContent = `Cannot read the status (${e.message}); retrying.`; return; }
  $('demo').hidden = !s.demo;
  $('test-mode').hidden = !s.test_mode;
  const bad = s.devices.filter(d => d.state !== 'ok').length;
  const suspended = s.tables.filter(t => t.suspended).length;
  $('summary').replaceChildren(
    el('div', { class: 'card' }, el('strong', { class: bad ? 'bad' : 'ok', text: `${s.devices.length - bad}/${s.devices.length}` }), 'devices ok'),
    el('div', { class: 'card' }, el('strong', { class: s.rng.halted ? 'bad' : 'ok', text: s.rng.halted ? 'HALTED' : 'OK' }), 'RNG'),
    el('div', { class: 'card' }, el('strong', { class: suspended ? 'bad' : 'ok', text: `${s.tables.length - suspended}/${s.tables.length}` }), 'tables open'));
  const floor = s.floor || [];
  if (floor.length) {
    const up = floor.filter(w => w.state === 'serving').length;
    $('summary').append(el('div', { class: 'card', id: 'floor-summary' },
      el('strong', { class: up === floor.length ? 'ok' : 'bad', text: `${up}/${floor.length}` }), 'servers answering'));
  }
  $('floor-section').hidden = !floor.length;
  $('floor').replaceChildren(...floor.map(server));
  $('devices').replaceChildren(...s.devices.map(device));
  if (!s.devices.length) $('devices').append(el('p', { text: 'No devices configured.' }));
  $('rng').replaceChildren(...rng(s.rng));
  const order = [...s.tables].sort((a, b) => (!!b.suspended - !!a.suspended) || a.id.localeCompare(b.id));
  $('tables').replaceChildren(...order.map(t => el('div', { class: 'row', 'data-table': t.id },
    el('span', { text: t.id }), el('span', { class: t.suspended ? 'bad' : 'ok', text: t.suspended ? 'suspended: ' + t.suspended : 'open' }))));
  $('updated').textContent = `Updated ${new Date().toLocaleTimeString('en-US')}; refreshes every 2 seconds.`;
}

refresh();
setInterval(refresh, 2000);
