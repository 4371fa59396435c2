// The cash-out voucher: amount, validation number, kiosk, times, and the number as an
// Interleaved 2 of 5 barcode (ANSI/AIM BC2, the symbology of slot-machine tickets) drawn
// here in SVG. The voucher comes from the cash-out answer through sessionStorage (never
// the URL); "Done" removes it, so the next player at this kiosk cannot open it again.
'use strict';

const Barcode = (() => {
  // Each digit's five elements, narrow (0) or wide (1) (ANSI/AIM BC2-1995, table 1).
  const ITF = ['00110', '10001', '01001', '11000', '00101', '10100', '01100', '00011', '10010', '01010'];
  const NARROW = 1, WIDE = 3, QUIET = 10;

  /** The bars of `digits` (an even count) as [x, width] in narrow-module units. */
  function itf(digits) {
    if (!/^(\d\d)+$/.test(digits)) throw new Error('Interleaved 2 of 5 needs an even number of digits');
    const widths = [NARROW, NARROW, NARROW, NARROW]; // start: bar, space, bar, space
    for (let i = 0; i < digits.length; i += 2) {
      const bars = ITF[+digits[i]], spaces = ITF[+digits[i + 1]];
      for (let k = 0; k < 5; k++) widths.push(bars[k] === '1' ? WIDE : NARROW, spaces[k] === '1' ? WIDE : NARROW);
    }
    widths.push(WIDE, NARROW, NARROW); // stop: wide bar, space, bar
    const out = [];
    let x = QUIET;
    widths.forEach((w, i) => { if (i % 2 === 0) out.push([x, w]); x += w; });
    return { bars: out, width: x + QUIET };
  }

  function draw(svgEl, digits) {
    const { bars, width } = itf(digits);
    const NS = 'http://www.w3.org/2000/svg';
    svgEl.setAttribute('viewBox', `0 0 ${width} 40`);
    svgEl.setAttribute('preserveAspectRatio', 'none');
    svgEl.setAttribute('shape-rendering', 'crispEdges');
    svgEl.dataset.digits = digits;
    svgEl.replaceChildren(...bars.map(([x, w]) => {
      const r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', x); r.setAttribute('y', 0); r.setAttribute('width', w); r.setAttribute('height', 40);
      r.setAttribute('fill', '#000');
      return r;
    }));
  }
  return { itf, draw };
})();

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** Whole dollars in words, as printed on a ticket: 1234 -> "one thousand two hundred thirty-four". */
function words(n) {
  if (n < 20) return ONES[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? '-' + ONES[n % 10] : '');
  if (n < 1000) return ONES[Math.floor(n / 100)] + ' hundred' + (n % 100 ? ' ' + words(n % 100) : '');
  for (const [size, name] of [[1e9, 'billion'], [1e6, 'million'], [1e3, 'thousand']]) {
    if (n >= size) return words(Math.floor(n / size)) + ' ' + name + (n % size ? ' ' + words(n % size) : '');
  }
  return String(n);
}

function money(cents) {
  return '$' + Math.floor(cents / 100).toLocaleString('en-US') + '.' + String(cents % 100).padStart(2, '0');
}

function local(iso) {
  const d = new Date(iso);
  return d.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

function show() {
  const $ = id => document.getElementById(id);
  let v = null;
  try { v = JSON.parse(sessionStorage.getItem('croupier.voucher') || 'null'); } catch (e) { v = null; }
  $('done').onclick = () => { sessionStorage.removeItem('croupier.voucher'); location.href = '/'; };
  if (!v || !v.number) {
    const n = $('notice');
    n.textContent = 'No voucher to show here: a voucher is shown once, right after it is printed.';
    n.className = 'notice info'; n.hidden = false;
    $('print').hidden = true;
    return;
  }
  $('v-amount').textContent = money(v.amount);
  $('v-words').textContent = `${words(Math.floor(v.amount / 100))} dollars and ${String(v.amount % 100).padStart(2, '0')} cents`;
  $('v-number').textContent = v.printed;
  $('v-validation').textContent = v.printed;
  $('v-kiosk').textContent = v.kiosk;
  $('v-issued').textContent = local(v.issued);
  $('v-expires').textContent = local(v.expires);
  $('v-serial').textContent = v.serial;
  Barcode.draw($('v-barcode'), v.number);
  $('voucher').hidden = false;
  $('print').onclick = () => window.print();
}

show();
