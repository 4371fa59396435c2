// The operator console: every panel is one call to the authenticated operator API.
// The session lives in an HttpOnly cookie set by POST /api/operator/login.
'use strict';

const { el, money, api } = Croupier;
const $ = id => document.getElementById(id);

function cell(text, cls) { return el('td', { class: cls, text: text === null || text === undefined ? '' : String(text) }); }
function stateClass(s) { return s === 'ok' ? 'ok' : s === 'degraded' ? 'warn' : 'bad'; }
function done(text, kind = 'info') { Croupier.notice(text, kind); }

async function guarded(fn) {
  try { await fn(); } catch (e) {
    if (e.status === 401) { showLogin(); }
    Croupier.notice(e.message);
  }
}

function showLogin() { if (alarmStream) { alarmStream.close(); alarmStream = null; } if (floorStream) { floorStream.close(); floorStream = null; } ME = { user: '', role: '' }; $('login').hidden = false; $('console').hidden = true; $('logout').hidden = true; $('who').textContent = ''; }

async function loadDevices() {
  const tb = $('devices').querySelector('tbody');
  const list = await api('GET', '/api/operator/devices');
  tb.replaceChildren(...list.map(d => el('tr', { dataset: { role: d.role } },
    cell(d.role), cell(d.state, stateClass(d.state)), cell([d.model, d.firmware].filter(Boolean).join(' / ')),
    cell(Object.entries(d.counters || {}).map(([k, v]) => `${k}=${v}`).join(' ')), cell(d.last_fault || '–', d.last_fault ? 'bad' : ''))));
  if (!list.length) tb.append(el('tr', {}, el('td', { colspan: 5, text: 'No devices configured.' })));
}

async function loadRng() {
  const r = await api('GET', '/api/operator/rng');
  const rows = [['Policy', r.policy], ['Active source', r.active], ['Halted', r.halted || 'no', r.halted ? 'bad' : 'ok'],
    ['Draws / bytes served', `${r.draws} / ${r.bytes}`], ['DRBG', `${r.generator.mechanism || ''} · reseeds ${r.generator.reseeds ?? ''} · requests ${r.generator.requests ?? ''}`]];
  for (const s of r.sources) {
    const h = s.health || {};
    rows.push([`Source ${s.name}`, `${s.state} · read ${s.bytes_read} B · RCT failures ${h.rct_failures ?? 0} · APT failures ${h.apt_failures ?? 0}` +
      (h.last_failure ? ` · last failure: ${h.last_failure}` : '') + (s.last_error ? ` · last error: ${s.last_error}` : ''), s.state === 'ok' ? 'ok' : s.state === 'failed' ? 'bad' : '']);
  }
  for (const a of (r.alarms || []).slice(-5)) rows.push(['Alarm', `${a.kind}: ${a.message}`, 'warn']);
  $('rng').querySelector('tbody').replaceChildren(...rows.map(([k, v, c]) => el('tr', {}, cell(k), cell(v, c))));
}

async function tableAction(id, what) {
  await guarded(async () => {
    const reason = $('reason').value;
    const body = what === 'resume' ? undefined : { reason };
    const r = await api('POST', `/api/operator/tables/${encodeURIComponent(id)}/${what}`, body);
    done(what === 'void' ? `Game on ${id} voided; returned ${money(Object.values(r.returned).reduce((a, b) => a + b, 0))}` : `Table ${id}: ${what} done`);
    await loadTables();
  });
}

/** A server of the floor by its holder name ("host/id/worker-1" -> "host worker 1"). */
function serverLabel(holder) {
  const [host, , worker] = String(holder || '').split('/');
  return worker ? `${host} ${worker.replace('-', ' ')}` : host;
}

function tableState(t) {
  if (t.answered === false) return ['its server does not answer' + (t.suspended ? ' (last: suspended)' : ''), 'bad'];
  if (t.suspended) return ['suspended: ' + t.suspended, 'bad'];
  return [t.game ? 'in play ' + t.game : 'open', 'ok'];
}

// Every table of the floor: this server's with their actions, the others' (another worker
// or appliance of a shared store) with who serves them and a link to that server's console.
function renderTables(list) {
  $('tables').querySelector('tbody').replaceChildren(...list.map(t => {
    const [state, cls] = tableState(t);
    const remote = t.here === false;
    return el('tr', { dataset: { table: t.id, server: remote ? t.holder : 'here' } },
      cell(t.id), cell(remote ? `${t.source || ''} · ${serverLabel(t.holder)}` : t.source), cell(state, cls),
      el('td', {}, remote
        ? (t.url ? el('a', { href: `${t.url}/operator`, text: `Open on ${serverLabel(t.holder)}` }) : '')
        : t.suspended
          ? [el('button', { onclick: () => tableAction(t.id, 'resume'), text: 'Resume' }), ' ', el('button', { onclick: () => tableAction(t.id, 'void'), disabled: !t.game, text: 'Void game' })]
          : el('button', { onclick: () => tableAction(t.id, 'suspend'), text: 'Suspend' })));
  }));
}

async function loadTables() {
  const floor = await api('GET', '/api/operator/floor');  // a shared store: the whole floor
  renderTables(floor.length ? floor : await api('GET', '/api/operator/tables'));
}

function amountCents() {
  const text = $('amount').value.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(text)) throw new Error('enter an amount in dollars and cents, like 25.00');
  const [d, c = ''] = text.split('.');
  return Number(d) * 100 + Number(c.padEnd(2, '0'));
}

async function cash(player, kind) {
  await guarded(async () => {
    const amount = amountCents();
    const r = await api('POST', `/api/operator/players/${encodeURIComponent(player)}/${kind}`, { amount });
    done(`${kind === 'cash-in' ? 'Cash-in' : 'Cash-out'} of ${money(amount)} for ${player}: balance ${money(r.balance)}`);
    await loadPlayers();
  });
}

async function loadPlayers() {
  const list = await api('GET', '/api/operator/players');
  $('players').querySelector('tbody').replaceChildren(...list.map(p => el('tr', { dataset: { player: p.id } },
    cell(p.id), cell(p.name), cell(money(p.balance), 'balance'),
    el('td', {}, el('button', { onclick: () => cash(p.id, 'cash-in'), text: 'Cash in' }), ' ',
      el('button', { onclick: () => cash(p.id, 'cash-out'), text: 'Cash out' })))));
}

async function verify() {
  $('log-out').textContent = 'Verifying…';
  await guarded(async () => {
    const r = await api('POST', '/api/operator/log/verify');
    $('log-out').textContent = `${r.ok ? 'OK' : 'FAILED'}: ${r.message}\nrecords ${r.records}, checkpoints ${r.checkpoints}, last signed record ${r.last_signed_seq}, unsigned tail ${r.unsigned_tail}`;
    $('log-out').className = 'out ' + (r.ok ? 'ok' : 'bad');
  });
}

async function audit() {
  $('log-out').textContent = 'Auditing…';
  await guarded(async () => {
    const r = await api('GET', '/api/operator/audit');
    $('log-out').textContent = `${r.ok ? 'OK' : 'FAILED'}: ${r.message}\n` + JSON.stringify(r.report, null, 2);
    $('log-out').className = 'out ' + (r.ok ? 'ok' : 'bad');
  });
}

async function verifyInstall() {
  $('log-out').textContent = 'Hashing the installed files…';
  await guarded(async () => {
    const r = await api('POST', '/api/operator/install/verify');
    const detail = r.files === undefined ? '' :
      `\n${r.files} files, manifest sha256 ${r.installed_sha256}\nsealed ${r.sealed_at} by key ${r.key_id}` +
      [...r.changed.map(p => `\nchanged: ${p}`), ...r.added.map(p => `\nadded: ${p}`), ...r.missing.map(p => `\nmissing: ${p}`)].join('');
    $('log-out').textContent = `${r.ok ? 'OK' : 'FAILED'}: ${r.message}${detail}`;
    $('log-out').className = 'out ' + (r.ok ? 'ok' : 'bad');
  });
}

async function loadRuns() {
  let runs;
  try { runs = await api('GET', '/api/operator/certify'); } catch (e) {
    $('p-cert').hidden = e.status === 404;
    return;
  }
  $('cert-note').textContent = 'A quick run: the game-outcome and RNG batteries on a small sample, reports in the store.';
  $('runs').querySelector('tbody').replaceChildren(...runs.map(r => el('tr', { dataset: { run: r.id } },
    cell(r.id), cell(r.state + (r.message ? ': ' + r.message : ''), r.state === 'done' ? 'ok' : r.state === 'failed' ? 'bad' : 'warn'),
    el('td', {}, r.files.map(f => [el('a', { href: `/api/operator/certify/${encodeURIComponent(r.id)}/${encodeURIComponent(f)}`, target: '_blank', text: f }), ' '])))));
  if (runs.some(r => r.state === 'running')) setTimeout(() => guarded(loadRuns), 2000);
}

async function startRun() {
  await guarded(async () => {
    const r = await api('POST', '/api/operator/certify', {});
    done(`Certification run ${r.id} started`);
    await loadRuns();
  });
}

// Operator management is the admin's: for anyone else the panel stays hidden (the API
// answers 403 to them anyway).
let ME = { user: '', role: '' };

async function operatorAction(user, what) {
  await guarded(async () => {
    if (what === 'password') {
      const password = $('op-reset').value;
      if (password.length < 8) throw new Error('enter the new password (8 characters or more) in "New password for a reset"');
      await api('POST', `/api/operator/operators/${encodeURIComponent(user)}/password`, { password });
      $('op-reset').value = '';
      done(`Password of ${user} reset; their sessions ended`);
    } else {
      await api('POST', `/api/operator/operators/${encodeURIComponent(user)}/${what}`);
      done(what === 'disable' ? `${user} disabled; their sessions ended` : `${user} enabled`);
    }
    await loadOperators();
  });
}

async function loadOperators() {
  if (ME.role !== 'admin') { $('p-operators').hidden = true; return; }
  const list = await api('GET', '/api/operator/operators');
  $('p-operators').hidden = false;
  $('operators').querySelector('tbody').replaceChildren(...list.map(o => el('tr', { dataset: { user: o.user } },
    cell(o.user), cell(o.role), cell(o.disabled ? 'disabled' : 'active', o.disabled ? 'bad' : 'ok'),
    el('td', {}, o.user === ME.user ? '(you)' : [
      el('button', { onclick: () => operatorAction(o.user, o.disabled ? 'enable' : 'disable'), text: o.disabled ? 'Enable' : 'Disable' }), ' ',
      el('button', { onclick: () => operatorAction(o.user, 'password'), text: 'Reset password' }), ' ',
      roleControl(o)]))));
}

const ROLES = ['operator', 'technician', 'auditor', 'admin'];

function roleControl(o) {
  const sel = el('select', { 'aria-label': `role of ${o.user}`, class: 'role-select' },
    ROLES.map(r => el('option', { value: r, text: r, selected: r === o.role })));
  const btn = el('button', { text: 'Set role', onclick: () => guarded(async () => {
    await api('POST', `/api/operator/operators/${encodeURIComponent(o.user)}/role`, { role: sel.value });
    done(`${o.user} is now ${sel.value}; their sessions ended`);
    await loadOperators();
  }) });
  return el('span', { class: 'role-control' }, sel, ' ', btn);
}

async function addOperator(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const body = { user: $('op-user').value, password: $('op-password').value, role: $('op-role').value };
    await api('POST', '/api/operator/operators', body);
    $('op-user').value = ''; $('op-password').value = '';
    done(`Operator ${body.user} (${body.role}) added`);
    await loadOperators();
  });
}

async function changePassword(ev) {
  ev.preventDefault();
  await guarded(async () => {
    if ($('pw-new').value !== $('pw-again').value) throw new Error('the two new passwords differ');
    await api('POST', '/api/operator/password', { old_password: $('pw-old').value, new_password: $('pw-new').value });
    for (const id of ['pw-old', 'pw-new', 'pw-again']) $(id).value = '';
    done('Password changed; your other sessions ended');
  });
}

// --- live alarms: a snapshot, then one Server-Sent Event per change -------------------
let ALARMS = new Map();
let alarmStream = null;

function when(seconds) { return new Date(seconds * 1000).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit', second: '2-digit' }); }

function renderAlarms() {
  const rank = a => (a.state === 'cleared' ? 1 : 0);
  // this server's alarms, and the open ones of the floor's other servers (from the floor stream)
  const list = [...ALARMS.values(), ...FLOOR_ALARMS].sort((a, b) => rank(a) - rank(b) || b.at - a.at).slice(0, 60);
  const tb = $('alarms').querySelector('tbody');
  tb.replaceChildren(...list.map(a => el('tr', { dataset: { alarm: String(a.id), kind: a.kind, state: a.state, server: a.holder || 'here' } },
    cell(when(a.at)), cell(a.kind, a.state === 'cleared' ? '' : 'bad'), cell(a.holder ? `${serverLabel(a.holder)}: ${a.message}` : a.message),
    cell(a.state === 'acknowledged' ? `acknowledged by ${a.by}` : a.state, a.state === 'open' ? 'bad' : a.state === 'cleared' ? 'ok' : 'warn'),
    el('td', {}, a.state === 'open' ? el('button', { onclick: () => ackAlarm(a.id, a.holder), text: 'Acknowledge' }) : ''))));
  if (!list.length) tb.append(el('tr', {}, el('td', { colspan: 5, text: 'No alarms.' })));
  const open = list.filter(a => a.state !== 'cleared').length;
  document.title = (open ? `(${open}) ` : '') + 'Croupier – operator console';
}

async function ackAlarm(id, holder) {
  await guarded(async () => {
    if (holder) {  // another server's alarm: acknowledged there, for this operator
      const a = await api('POST', '/api/operator/floor/alarms/ack', { holder, id });
      FLOOR_ALARMS = FLOOR_ALARMS.map(x => (x.holder === holder && x.id === id ? { ...x, ...a } : x));
    } else {
      const a = await api('POST', `/api/operator/alarms/${id}/ack`); ALARMS.set(a.id, a);
    }
    renderAlarms();
  });
}

// --- the floor: every server's tables and alarms, one event whenever any of them changes --
let FLOOR_ALARMS = [];
let floorStream = null;

function followFloor() {
  if (floorStream) floorStream.close();
  floorStream = new EventSource('/api/operator/floor/stream');
  floorStream.addEventListener('floor', ev => {
    const snap = JSON.parse(ev.data);
    if (snap.tables.length) renderTables(snap.tables);
    FLOOR_ALARMS = snap.alarms;
    renderAlarms();
    $('floor-down').textContent = snap.servers.map(s => s.error).join(' · ');
  });
  floorStream.addEventListener('error', () => {
    if ($('console').hidden && floorStream) { floorStream.close(); floorStream = null; return; }
    if (floorStream && floorStream.readyState === EventSource.CLOSED) {
      setTimeout(() => guarded(async () => { await api('GET', '/api/operator/me'); followFloor(); }), 3000);
    }
  });
}

function followAlarms() {
  if (alarmStream) alarmStream.close();
  alarmStream = new EventSource('/api/operator/alarms/stream');
  alarmStream.addEventListener('open', () => { $('alarm-live').textContent = '● live'; $('alarm-live').className = 'alarm-live small ok'; });
  alarmStream.addEventListener('snapshot', ev => { ALARMS = new Map(JSON.parse(ev.data).map(a => [a.id, a])); renderAlarms(); });
  alarmStream.addEventListener('alarm', ev => { const m = JSON.parse(ev.data); ALARMS.set(m.alarm.id, m.alarm); renderAlarms(); });
  alarmStream.addEventListener('error', () => {
    $('alarm-live').textContent = 'reconnecting…'; $('alarm-live').className = 'alarm-live small warn';
    if ($('console').hidden && alarmStream) { alarmStream.close(); alarmStream = null; return; }
    // Refused (the session ended): the browser gives up; see whether we are still signed in.
    if (alarmStream && alarmStream.readyState === EventSource.CLOSED) {
      setTimeout(() => guarded(async () => { await api('GET', '/api/operator/me'); followAlarms(); }), 3000);
    }
  });
}

// --- the cage ----------------------------------------------------------------------
function dollars(iso) { return new Date(iso).toLocaleString('en-US', { dateStyle: 'short', timeStyle: 'short' }); }

async function loadVouchers() {
  let r;
  try { r = await api('GET', '/api/operator/vouchers'); } catch (e) {
    if (e.status === 403) { $('p-cage').hidden = true; return; }
    throw e;
  }
  $('p-cage').hidden = false;
  $('cage-summary').textContent = `${r.outstanding} unpaid voucher${r.outstanding === 1 ? '' : 's'}, ${money(r.liability)} outstanding.`;
  $('vouchers').querySelector('tbody').replaceChildren(...r.vouchers.map(v => el('tr', { dataset: { voucher: v.serial, state: v.status } },
    cell(v.serial), cell(money(v.amount)), cell(v.kiosk), cell(dollars(v.issued)), cell(dollars(v.expires)),
    cell(v.status + (v.closed_by ? ' · ' + v.closed_by : ''), v.status === 'issued' ? 'warn' : v.status === 'redeemed' ? 'ok' : ''))));
}

async function payVoucher(ev) {
  ev.preventDefault();
  await guarded(async () => {
    const r = await api('POST', '/api/operator/vouchers/redeem', { number: $('cage-number').value });
    $('cage-number').value = '';
    done(`Voucher ${r.voucher.serial}: pay ${money(r.voucher.amount)} in cash`);
    await loadVouchers();
  });
}

async function expireVouchers() {
  await guarded(async () => {
    const r = await api('POST', '/api/operator/vouchers/expire');
    done(`${r.expired.length} expired voucher${r.expired.length === 1 ? '' : 's'} closed to the house`);
    await loadVouchers();
  });
}

async function loadAll() {
  await guarded(async () => {
    await Promise.all([loadDevices(), loadRng(), loadTables(), loadPlayers(), loadOperators(), loadVouchers()]);
    await loadRuns();
  });
}

async function enter(sess) {
  ME = { user: sess.user, role: sess.role };
  $('login').hidden = true; $('console').hidden = false; $('logout').hidden = false;
  $('who').textContent = `${sess.user} (${sess.role})`;
  followAlarms();
  followFloor();
  await loadAll();
}

async function main() {
  $('login').addEventListener('submit', async ev => {
    ev.preventDefault();
    await guarded(async () => {
      const sess = await api('POST', '/api/operator/login', { user: $('user').value, password: $('password').value });
      Croupier.notice('');
      await enter(sess);
    });
  });
  $('logout').onclick = () => guarded(async () => { await api('POST', '/api/operator/logout'); showLogin(); });
  $('verify').onclick = verify;
  $('audit').onclick = audit;
  $('verify-install').onclick = verifyInstall;
  $('certify').onclick = startRun;
  $('pw-form').addEventListener('submit', changePassword);
  $('op-add').addEventListener('submit', addOperator);
  $('cage-form').addEventListener('submit', payVoucher);
  $('cage-expire').onclick = expireVouchers;
  // Already signed in (cookie still valid)? Then go straight to the console.
  let me = null;
  try { me = await api('GET', '/api/operator/me'); } catch (e) { showLogin(); }
  if (me) await enter(me);
  setInterval(() => { if (!$('console').hidden) guarded(() => Promise.all([loadDevices(), loadRng()])); }, 5000);
}

main();
