// Share links, exports and offline use. A share link carries the report in its #r= fragment,
// which browsers never send to a server; the wasm core encodes it and decodes it under hard
// limits. Every string from a link is set as text (textContent), never as HTML.
import { el } from './dom.js';
import { coreConstants } from './core.js';
import { t, onLanguage } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

let hooks = null; // { renderReport, setStatus, core }
let current = null; // the report on screen
let shared = null; // the decoded link, while one is shown
let inputs = []; // Files analyzed in this session, kept for "include the raw input"

/** Wires the controls, registers the service worker, and opens a link in the address if any. */
export function setupShare(appHooks) {
  hooks = appHooks;
  $('#share').addEventListener('click', () => makeLink());
  $('#export-json').addEventListener('click', exportJson);
  $('#export-md').addEventListener('click', exportMarkdown);
  $('#export-png').addEventListener('click', exportPng);
  $('#share-url').addEventListener('focus', (e) => e.target.select());
  onLanguage(() => { if (shared) showShared(shared); });
  window.addEventListener('hashchange', () => openFromAddress());
  updateRawOption();
  registerServiceWorker();
  openFromAddress();
}

/** True while a shared link is on screen: the local analysis must not replace it. */
export function showingShared() {
  return shared !== null;
}

/** app.js calls this after every render, whatever the report's source. */
export function reportShown(report) {
  current = report;
  $('#share-url').hidden = true;
  $('#share-note').replaceChildren();
}

/** app.js calls this with the files of a new analysis. */
export function noteInputs(files) {
  leaveShared();
  inputs.push(...files);
  updateRawOption();
}

/** app.js calls this on Clear. */
export function resetShare() {
  leaveShared();
  inputs = [];
  current = null;
  updateRawOption();
  $('#share-error').hidden = true;
}

function updateRawOption() {
  // The raw input travels only below the core's limit, which its encoder enforces too.
  const max = coreConstants().share_raw_max_bytes;
  const total = inputs.reduce((sum, f) => sum + f.size + f.name.length, 0);
  const box = $('#share-raw');
  const allowed = inputs.length > 0 && total <= max;
  box.disabled = !allowed;
  if (!allowed) box.checked = false;
  box.parentElement.title = allowed ? '' : t('ui.share.raw-unavailable', { kb: max / 1024 });
}

// ---- making a link

async function makeLink() {
  if (!current) return;
  const note = $('#share-note');
  let raw = '';
  if ($('#share-raw').checked && !shared) {
    const list = [];
    for (const f of inputs) list.push({ name: f.name, text: await f.text() });
    raw = JSON.stringify(list);
  }
  const made = JSON.parse(hooks.core.share_encode(JSON.stringify(current), raw, coreConstants().share_budget_bytes));
  if (!made.ok) {
    note.replaceChildren(t('ui.share.failed', { error: errorText(made) }));
    return;
  }
  const url = location.href.split('#')[0] + made.fragment;
  const field = $('#share-url');
  field.value = url;
  field.hidden = false;
  field.dataset.bytes = String(made.bytes);
  field.dataset.fullBytes = String(made.full_bytes);
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    // No clipboard (permissions, insecure context): the field is there to copy by hand.
  }
  field.focus();
  field.select();
  note.replaceChildren(el('p', {}, t(copied ? 'ui.share.copied' : 'ui.share.copy-by-hand', { bytes: url.length })));
  note.dataset.copied = String(copied);
  if (made.omitted.length) note.append(omittedList('ui.share.left-out', made.omitted));
}

function omittedList(headingKey, omitted) {
  const box = el('div', { class: 'omitted' }, el('p', {}, t(headingKey)));
  const ul = el('ul', {});
  for (const o of omitted) {
    const text = t(`ui.share.omitted.${o.what}`, { limit: o.limit ?? '' });
    ul.append(el('li', { 'data-omitted': o.what }, text));
  }
  box.append(ul);
  return box;
}

// ---- opening a link

function openFromAddress() {
  if (!location.hash.startsWith('#r=')) return;
  $('#share-error').hidden = true;
  const read = JSON.parse(hooks.core.share_decode(location.hash));
  if (!read.ok) {
    showError(read);
    return;
  }
  showShared(read.shared);
}

function showShared(s) {
  shared = s;
  document.body.dataset.shared = 'true';
  $('#shared-banner').hidden = false;
  hooks.renderReport(s.report);
  const banner = $('#shared-banner');
  banner.querySelector('.omitted')?.remove();
  if (s.omitted?.length) banner.append(omittedList('ui.share.banner.left-out', s.omitted));
  $('#results .shared-raw')?.remove();
  if (s.raw?.length) {
    const section = el('section', { class: 'shared-raw' }, el('h2', {}, t('ui.share.raw.title')));
    for (const r of s.raw) {
      section.append(el('details', { 'data-input': r.name }, el('summary', {}, r.name), el('pre', {}, r.text)));
    }
    $('#results').append(section);
  }
  hooks.setStatus('');
}

function showError(read) {
  leaveShared();
  $('#results').hidden = true;
  const box = $('#share-error');
  box.replaceChildren(el('strong', {}, t('ui.share.error.title')), ' ', errorText(read));
  box.dataset.code = read.code;
  box.hidden = false;
}

function errorText(read) {
  return t(`ui.share.error.${read.code}`, { detail: read.detail });
}

function leaveShared() {
  if (!shared) return;
  shared = null;
  delete document.body.dataset.shared;
  const banner = $('#shared-banner');
  banner.hidden = true;
  banner.querySelector('.omitted')?.remove();
  $('#results .shared-raw')?.remove();
  if (location.hash.startsWith('#r=')) history.replaceState(null, '', location.href.split('#')[0]);
}

// ---- exports

function download(name, blob) {
  const a = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function exportJson() {
  if (!current) return;
  // The same schema and layout as `tokscope analyze --json`.
  download('tokscope-report.json', new Blob([`${JSON.stringify(current, null, 2)}\n`], { type: 'application/json' }));
}

function exportMarkdown() {
  if (!current) return;
  try {
    download('tokscope-report.md', new Blob([hooks.core.report_markdown(JSON.stringify(current))], { type: 'text/markdown' }));
  } catch (err) {
    $('#share-note').replaceChildren(String(err));
  }
}

/**
 * Every chart on the page, stacked into one PNG (one download, not one per chart): the report's
 * (telemetry, thread timelines) and the probe's, wherever they sit; hidden ones are left out.
 */
function exportPng() {
  const canvases = [...document.querySelectorAll('main canvas')]
    .filter((c) => c.width && c.height && c.getClientRects().length > 0);
  if (!canvases.length) {
    $('#share-note').replaceChildren(t('ui.export.no-charts'));
    return;
  }
  const gap = 16;
  const out = document.createElement('canvas');
  out.width = Math.max(...canvases.map((c) => c.width));
  out.height = canvases.reduce((h, c) => h + c.height, 0) + gap * (canvases.length - 1);
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, out.width, out.height);
  let y = 0;
  for (const c of canvases) {
    ctx.drawImage(c, 0, y);
    y += c.height + gap;
  }
  out.toBlob((blob) => { if (blob) download('tokscope-charts.png', blob); }, 'image/png');
  const note = $('#share-note');
  note.dataset.charts = String(canvases.length);
  note.replaceChildren(t('ui.export.png-done', { n: canvases.length }));
}

// ---- offline

function registerServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  // Relative to this module, so the site works under any sub-path.
  navigator.serviceWorker.register(new URL('sw.js', import.meta.url)).catch(() => {});
  navigator.serviceWorker.ready.then(() => {
    $('#offline-status').textContent = t('ui.offline.ready');
    document.body.dataset.offline = 'ready';
  });
}

