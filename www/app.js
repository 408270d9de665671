// The page: hands dropped, picked or pasted files to the analyzer worker (which streams them
// into the wasm core), shows progress, and renders the report. Every string from a file is set as
// text, never as HTML.
import { el } from './dom.js';
import { t, hasText, language, loadCatalogue, preferredLanguage, setLanguage } from './i18n.js';
import { pickBuild } from './wasm-build.js';
import { compileCore } from './wasm-load.js';
import { setCore } from './core.js';
import { initProbe, renderDeviceRef } from './probe.js';
import { setupShare, reportShown, noteInputs, resetShare, showingShared } from './share.js';
import { renderRuns } from './runs.js';
import { renderComparison } from './compare.js';
import { renderTelemetry } from './telemetry.js';
import { renderSched } from './trace.js';
import { renderVerdict, renderFindingGroups } from './verdict.js';

const EXAMPLE = 'samples/device-b-llama-android.logcat.txt';
const $ = (sel) => document.querySelector(sel);

// The wasm core: the best build this engine validates (see wasm-build.js). The worker analyzes
// with it; this thread's own instance serves share links, exports and the probe.
const build = pickBuild();
// Started before anything else, so the download overlaps the rest of start-up.
const coreModule = compileCore(build);
const coreGlue = import(`./${build.dir}/tokscope.js`);
const catalogueLoaded = loadCatalogue();
let worker = null;
/**
 * Files picked, dropped or pasted before the core is ready, in order: they are read as soon as it
 * is, and the status says so meanwhile (a drop during the load used to be lost).
 */
let pending = [];
let fileCount = 0;
let nextToken = 1;
/** token -> progress row element, for files being read. */
const inFlight = new Map();
/** token -> File, for files sent to the worker and not done yet. */
const sent = new Map();
/**
 * What the worker holds, so a new worker can be given the same after the core fails: the files
 * read in full, in order, the last probe result and the user's settings.
 */
let analyzed = [];
let lastDevice = null;
let settingsSent = {};
/** Files the core failed on: {name, error}; listed with the inputs, left out of the analysis. */
let failed = [];

function setStatus(text, isError = false) {
  const s = $('#status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

function startWorker(module) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('analyzer.worker.js', import.meta.url), { type: 'module' });
    w.postMessage({ type: 'init', dir: build.dir, module });
    w.onerror = (e) => reject(new Error(e.message || 'worker failed to load'));
    w.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        w.onmessage = ({ data: msg }) => onWorkerMessage(msg);
        // A worker that dies later (an uncaught error, out of memory) is replaced like one whose
        // core failed; the file it was reading is the one left out.
        w.onerror = (e) => {
          e.preventDefault?.();
          onWorkerMessage({ type: 'core-error', token: sent.keys().next().value ?? null, error: e.message || 'stopped' });
        };
        resolve(w);
      } else if (data.type === 'fatal') {
        reject(new Error(data.error));
      }
    };
  });
}

function onWorkerMessage(msg) {
  // The worker's wasm memory size, for the big-file benchmark (tests/e2e/bench-big.mjs).
  if (msg.wasmBytes) document.body.dataset.workerWasmBytes = msg.wasmBytes;
  switch (msg.type) {
    case 'progress':
      showProgress(msg);
      break;
    case 'read-error':
      setStatus(`${msg.name}: ${msg.error}`, true);
      break;
    case 'file-done': {
      inFlight.get(msg.token)?.remove();
      inFlight.delete(msg.token);
      // A file cancelled part way is not read again by a replacement worker.
      if (!msg.cancelled && sent.has(msg.token)) analyzed.push(sent.get(msg.token));
      sent.delete(msg.token);
      fileCount += 1;
      const busy = inFlight.size > 0;
      $('#cancel').hidden = !busy;
      if (!busy && failed.length) setStatus(t('ui.status.done-failed', { n: fileCount, failed: failed.length }), true);
      else if (!busy) setStatus(t(msg.cancelled ? 'ui.status.cancelled' : 'ui.status.done', { n: fileCount }));
      break;
    }
    case 'report':
      if (!showingShared()) renderReport(JSON.parse(msg.json));
      break;
    case 'core-error':
      replaceWorker(msg).catch((err) => setStatus(t('ui.status.failed', { error: err.message ?? err }), true));
      break;
    default:
      break;
  }
}

/**
 * The core failed (a wasm trap: a bug in tokscope, never the user's doing). Its memory cannot be
 * trusted, so a new worker reads the other files again, with the same probe result and settings;
 * the file it failed on is listed with the error and left out.
 */
async function replaceWorker({ token, name, error }) {
  const culprit = token != null ? sent.get(token) : null;
  const failedName = culprit?.name ?? name ?? '';
  failed.push({ name: failedName, error });
  const again = [...analyzed, ...[...sent.entries()].filter(([k]) => k !== token).map(([, f]) => f)];
  worker?.terminate();
  worker = null;
  for (const row of inFlight.values()) row.remove();
  inFlight.clear();
  sent.clear();
  analyzed = [];
  fileCount = 0;
  worker = await startWorker(await coreModule);
  if (lastDevice) worker.postMessage({ type: 'device', json: JSON.stringify(lastDevice) });
  if (again.length) sendFiles(again);
  else {
    $('#results').hidden = false;
    renderInputs([]);
  }
  // Settings act on the analysis, so they follow the files in the worker's queue.
  if (Object.keys(settingsSent).length) worker.postMessage({ type: 'settings', ...settingsSent });
  setStatus(t('ui.status.core-failed', { name: failedName, error }), true);
}

function showProgress({ token, name, bytes, total, mbps }) {
  const row = inFlight.get(token);
  if (!row) return;
  const mb = (n) => (n / 1e6).toFixed(1);
  row.querySelector('progress').max = Math.max(total, 1);
  row.querySelector('progress').value = bytes;
  row.querySelector('.progress-text').textContent =
    t('ui.progress', { name, done: mb(bytes), total: mb(total), rate: mbps.toFixed(1) });
}

function showWaiting() {
  const n = pending.reduce((sum, files) => sum + files.length, 0);
  // Until the catalogue is in, main() says it once it is.
  if (n && hasText('ui.status.queued')) setStatus(t('ui.status.queued', { n }));
}

function analyzeFiles(files) {
  if (!files.length) return;
  if (!worker) {
    pending.push(files);
    showWaiting();
    return;
  }
  noteInputs(files);
  sendFiles(files);
}

/** Posts files to the worker, each with a progress row. */
function sendFiles(files) {
  const batch = files.map((file) => {
    const token = nextToken++;
    const row = el('div', { class: 'file-progress', 'data-file': file.name },
      el('progress', { max: Math.max(file.size, 1), value: 0 }),
      el('span', { class: 'progress-text' }, file.name));
    $('#progress').append(row);
    inFlight.set(token, row);
    sent.set(token, file);
    return { token, file };
  });
  $('#cancel').hidden = false;
  setStatus(t('ui.status.reading', { name: files.map((f) => f.name).join(', ') }));
  worker.postMessage({ type: 'analyze', files: batch, lang: language() });
}

function render() {
  worker?.postMessage({ type: 'report', lang: language() });
}

/** Files waiting for the answer to "add to this analysis, or replace it?". */
let asked = [];

/** A report of this tab's own analysis is on screen (not a share link's). */
function analysisShown() {
  return worker && !showingShared() && !$('#results').hidden && (fileCount > 0 || inFlight.size > 0);
}

/**
 * Files the user just dropped, picked or pasted: onto a report already shown they could belong to
 * it (another device's log) or start a new question, so the user says which.
 */
function offerFiles(files) {
  if (!files.length) return;
  if (!analysisShown()) {
    analyzeFiles(files);
    return;
  }
  asked.push(...files);
  const dialog = $('#drop-ask');
  $('#drop-ask-text').textContent = t('ui.drop.ask', { n: asked.length, names: asked.map((f) => f.name).join(', ') });
  if (!dialog.open) dialog.showModal();
  $('#drop-add').focus();
}

function answerDropAsk(answer) {
  const files = asked;
  asked = [];
  const dialog = $('#drop-ask');
  if (dialog.open) dialog.close();
  if (answer === 'replace') clearAll();
  if (answer !== 'cancel') analyzeFiles(files);
}

function wireDropAsk() {
  $('#drop-add').addEventListener('click', () => answerDropAsk('add'));
  $('#drop-replace').addEventListener('click', () => answerDropAsk('replace'));
  $('#drop-cancel').addEventListener('click', () => answerDropAsk('cancel'));
  // Escape closes the dialog: the files are not read.
  $('#drop-ask').addEventListener('cancel', () => { asked = []; });
}

/** The probe's hook: its results join the analysis, so the ceiling findings can use them. */
function setDeviceProbe(probe) {
  lastDevice = probe;
  worker?.postMessage({ type: 'device', json: JSON.stringify(probe) });
}

/** Shows one report (the schema of docs/report.md), wherever it came from. */
export function renderReport(report) {
  $('#results').hidden = false;
  renderVerdict($('#verdict'), report);
  renderDeviceRef($('#device-ref'), report, showingShared() ? null : (yes) => applyToAnalysis({ probeDevice: yes }));
  renderInputs(report.inputs);
  // A share view has no analysis behind it to work out again: its groups are shown as they are.
  renderComparison($('#compare'), report.comparison, { onChoice: showingShared() ? null : applyCompareChoice });
  $('#no-findings').hidden = report.findings.length > 0;
  renderFindingGroups($('#findings'), report);
  renderRuns($('#runs'), report.runs, report.inputs);
  renderTelemetry(report);
  renderSched(report.sched, { apply: applyToAnalysis });
  reportShown(report);
}

/** The compare view's grouping and reference: the worker works the report out again with it. */
function applyCompareChoice(choice) {
  applyToAnalysis({ compare: JSON.stringify(choice) });
}

/**
 * A topology or thread choice from the traces view, or the "this log came from this device"
 * answer: the worker re-runs the analysis with it.
 */
function applyToAnalysis(settings) {
  settingsSent = { ...settingsSent, ...settings };
  worker?.postMessage({ type: 'settings', ...settings });
}


function renderInputs(inputs) {
  const list = $('#inputs');
  list.replaceChildren();
  for (const input of inputs) {
    // Share links made before kind_label existed carry the kind alone.
    const kind = input.kind_label || (input.kind ? t(`kind.${input.kind}`) : '');
    const meta = [kind, input.framework_label, t('ui.input.size', { size: input.size, lines: input.lines })]
      .filter(Boolean)
      .join(' · ');
    // Exact counts stay on the element: the text shows the size as a reader writes it.
    const li = el('li', { 'data-input': input.name, 'data-kind': input.kind ?? '',
      'data-bytes': String(input.bytes), 'data-lines': String(input.lines) },
      el('div', { class: 'input-name' }, input.name),
      el('div', { class: 'input-meta' }, meta));
    for (const p of input.problems) {
      li.append(el('p', { class: `problem ${p.level}`, 'data-problem': p.code }, p.message));
      if (p.examples?.length) {
        const ol = el('ol', { class: 'problem-lines', 'data-problem-lines': p.code });
        for (const q of p.examples) {
          ol.append(el('li', { 'data-line': String(q.line) },
            el('span', { class: 'line-no' }, String(q.line)), el('code', {}, q.text)));
        }
        li.append(ol);
      }
    }
    list.append(li);
  }
  for (const f of failed) {
    list.append(el('li', { 'data-input': f.name, 'data-kind': 'failed' },
      el('div', { class: 'input-name' }, f.name),
      el('p', { class: 'problem error', 'data-problem': 'core-failed' }, t('ui.input.core-failed', { error: f.error }))));
  }
}

function clearAll() {
  pending = [];
  worker?.postMessage({ type: 'clear' });
  for (const row of inFlight.values()) row.remove();
  inFlight.clear();
  sent.clear();
  analyzed = [];
  failed = [];
  settingsSent = {};
  $('#cancel').hidden = true;
  fileCount = 0;
  resetShare();
  $('#results').hidden = true;
  $('#inputs').replaceChildren();
  $('#findings').replaceChildren();
  renderVerdict($('#verdict'), null);
  renderDeviceRef($('#device-ref'), null, null);
  $('#runs').replaceChildren();
  renderComparison($('#compare'), null);
  renderTelemetry({ series: [], findings: [], inputs: [] });
  renderSched(null, { apply: applyToAnalysis });
  setStatus(t(worker ? 'ui.status.ready' : 'ui.status.loading'));
}

async function loadExample() {
  const response = await fetch(EXAMPLE);
  if (!response.ok) throw new Error(`${EXAMPLE}: HTTP ${response.status}`);
  const blob = await response.blob();
  // The example replaces what is there; before the core is ready that is only the queue (and
  // the renderers that clearAll resets need the core).
  if (worker) clearAll();
  else pending = [];
  analyzeFiles([new File([blob], EXAMPLE.split('/').pop())]);
}

function pastedFile(text) {
  return new File([text], `${t('ui.paste.name')} ${fileCount + 1}.txt`, { type: 'text/plain' });
}

function wireDragAndDrop() {
  const overlay = $('#drop-overlay');
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth += 1;
    overlay.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    offerFiles([...(e.dataTransfer?.files ?? [])]);
  });
}

function wirePaste() {
  document.addEventListener('paste', (e) => {
    if (e.target === $('#paste')) return; // the textarea keeps its own paste
    const files = [...(e.clipboardData?.files ?? [])];
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (files.length) offerFiles(files);
    else if (text.trim()) offerFiles([pastedFile(text)]);
    else return;
    e.preventDefault();
  });
  $('#paste-go').addEventListener('click', () => {
    const text = $('#paste').value;
    if (text.trim()) offerFiles([pastedFile(text)]);
  });
}

/** Every way in for files, wired at first paint: before the core is ready they queue. */
function wireInputs() {
  $('#lang').addEventListener('change', (e) => {
    setLanguage(e.target.value, { chosen: true });
    if (worker) render();
    else showWaiting();
  });
  $('#file-input').addEventListener('change', (e) => {
    offerFiles([...e.target.files]);
    e.target.value = '';
  });
  $('#cancel').addEventListener('click', () => worker?.postMessage({ type: 'cancel' }));
  $('#example').addEventListener('click', () => loadExample().catch((err) => setStatus(String(err), true)));
  $('#clear').addEventListener('click', clearAll);
  wireDragAndDrop();
  wirePaste();
  wireDropAsk();
  // What came before this module ran: drops and example clicks kept by intake-early.js, and
  // files already chosen in the file input.
  const picked = [...$('#file-input').files];
  $('#file-input').value = '';
  analyzeFiles(picked);
  for (const item of window.tokscopeIntake?.take() ?? []) {
    if (item.example) loadExample().catch((err) => setStatus(String(err), true));
    else analyzeFiles(item.files);
  }
}

async function main() {
  wireInputs();
  try {
    await catalogueLoaded;
  } catch (err) {
    setStatus(`catalogue.json: ${err.message ?? err}`, true);
  }
  setLanguage(preferredLanguage());
  setStatus(t('ui.status.loading'));
  showWaiting();
  let core;
  try {
    core = await coreGlue;
    const module = await coreModule;
    [worker] = await Promise.all([startWorker(module), core.default({ module_or_path: module })]);
    setCore(core);
  } catch (err) {
    setStatus(t('ui.status.failed', { error: err.message ?? err }), true);
    return;
  }
  setStatus(t('ui.status.ready'));
  setupShare({ renderReport, setStatus, core });
  initProbe({ core, build, module: await coreModule, onResult: setDeviceProbe });
  delete document.body.dataset.loading;
  $('#intake').removeAttribute('aria-busy');
  document.body.dataset.ready = 'true';
  const queued = pending;
  pending = [];
  for (const files of queued) analyzeFiles(files);
}

main();
