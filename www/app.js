// The page: reads dropped, picked or pasted files in slices, streams them into the wasm core,
// and renders the report. Every string from a file is set as text, never as HTML.
import init, { Analysis } from './pkg/tokscope.js';
import { renderSched } from './trace.js';

const SLICE_BYTES = 4 * 1024 * 1024;
const EXAMPLE = 'samples/device-b-llama-android.logcat.txt';
const $ = (sel) => document.querySelector(sel);

// The one bilingual catalogue (crate/src/catalogue.json, copied by the build): the same file the
// wasm core renders findings from, so the page and the core never disagree.
let catalogue = {};
let lang = 'en';
let analysis = null;
let fileCount = 0;

function t(key, params = {}) {
  const template = catalogue[key]?.[lang] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

function pickLanguage() {
  const saved = localStorage.getItem('tokscope.lang');
  if (saved === 'en' || saved === 'zh') return saved;
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];
  return langs.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}

function applyLanguage(next) {
  lang = next;
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]')) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  document.title = t('ui.title');
  $('#lang').value = lang;
}

function setStatus(text, isError = false) {
  const s = $('#status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

async function streamFile(session, name, blob) {
  const id = session.begin(name);
  for (let offset = 0; offset < blob.size; offset += SLICE_BYTES) {
    const chunk = new Uint8Array(await blob.slice(offset, offset + SLICE_BYTES).arrayBuffer());
    session.push(id, chunk);
  }
  session.end(id);
}

async function analyzeFiles(files) {
  if (!files.length) return;
  analysis ??= new Analysis();
  for (const file of files) {
    setStatus(t('ui.status.reading', { name: file.name }));
    try {
      await streamFile(analysis, file.name, file);
      fileCount += 1;
    } catch (err) {
      // A file the browser cannot read (permissions, vanished) must not stop the others.
      setStatus(`${file.name}: ${err}`, true);
    }
  }
  render();
  setStatus(t('ui.status.done', { n: fileCount }));
}

function render() {
  if (!analysis) return;
  renderReport(JSON.parse(analysis.report_json(lang)));
}

/** Shows one report (the schema of docs/report.md), wherever it came from. */
export function renderReport(report) {
  $('#results').hidden = false;
  renderInputs(report.inputs);
  renderFindings(report.findings);
  renderSched(report.sched, { t, apply: applyToAnalysis });
}

/** Runs `fn(analysis)` (a topology or thread choice) and renders the new report. */
function applyToAnalysis(fn) {
  if (!analysis) return;
  fn(analysis);
  render();
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (k.startsWith('data-')) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

function renderInputs(inputs) {
  const list = $('#inputs');
  list.replaceChildren();
  for (const input of inputs) {
    const kind = input.kind ? t(`kind.${input.kind}`) : '';
    const meta = [kind, input.framework_label, t('ui.input.size', { bytes: input.bytes, lines: input.lines })]
      .filter(Boolean)
      .join(' · ');
    const li = el('li', { 'data-input': input.name, 'data-kind': input.kind ?? '' },
      el('div', { class: 'input-name' }, input.name),
      el('div', { class: 'input-meta' }, meta));
    for (const p of input.problems) {
      li.append(el('p', { class: `problem ${p.level}`, 'data-problem': p.code }, p.message));
    }
    list.append(li);
  }
}

function where(e) {
  if (e.line_start == null) return e.input;
  const range = e.line_end != null && e.line_end !== e.line_start ? `${e.line_start}-${e.line_end}` : `${e.line_start}`;
  return `${e.input}:${range}`;
}

function renderFindings(findings) {
  const box = $('#findings');
  box.replaceChildren();
  $('#no-findings').hidden = findings.length > 0;
  for (const f of findings) {
    const article = el('article', { class: 'finding', 'data-finding-id': f.id, 'data-severity': f.severity },
      el('h3', {}, el('span', { class: 'severity' }, t(`severity.${f.severity}`)), f.title),
      el('div', { class: 'finding-id' }, f.id),
      el('p', { class: 'summary' }, f.summary));
    if (f.evidence.length) {
      const ul = el('ul', { class: 'evidence' });
      for (const e of f.evidence) {
        const li = el('li', { 'data-input': e.input }, el('span', { class: 'where' }, where(e)), e.quote ?? '');
        if (e.line_start != null) li.setAttribute('data-line-start', String(e.line_start));
        if (e.line_end != null) li.setAttribute('data-line-end', String(e.line_end));
        ul.append(li);
      }
      article.append(el('h4', {}, t('ui.evidence')), ul);
    }
    for (const l of f.lines) {
      const text = `${t('ui.seen-on', { count: f.count ?? l.lines.length })} ${l.input}: ${l.lines.join(', ')}`
        + (f.lines_truncated ? ` ${t('ui.lines-truncated')}` : '');
      article.append(el('p', { class: 'lines', 'data-input': l.input, 'data-lines': l.lines.join(',') }, text));
    }
    article.append(el('h4', {}, t('ui.why')), el('p', { class: 'explain' }, f.explain),
      el('h4', {}, t('ui.fix')), el('p', { class: 'fix' }, f.fix));
    box.append(article);
  }
}

function clearAll() {
  analysis?.free();
  analysis = null;
  fileCount = 0;
  $('#results').hidden = true;
  $('#inputs').replaceChildren();
  $('#findings').replaceChildren();
  renderSched(null, { t, apply: applyToAnalysis });
  setStatus(t('ui.status.ready'));
}

async function loadExample() {
  const response = await fetch(EXAMPLE);
  if (!response.ok) throw new Error(`${EXAMPLE}: HTTP ${response.status}`);
  const blob = await response.blob();
  clearAll();
  await analyzeFiles([new File([blob], EXAMPLE.split('/').pop())]);
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
    analyzeFiles([...(e.dataTransfer?.files ?? [])]);
  });
}

function wirePaste() {
  document.addEventListener('paste', (e) => {
    if (e.target === $('#paste')) return; // the textarea keeps its own paste
    const files = [...(e.clipboardData?.files ?? [])];
    const text = e.clipboardData?.getData('text/plain') ?? '';
    if (files.length) analyzeFiles(files);
    else if (text.trim()) analyzeFiles([pastedFile(text)]);
    else return;
    e.preventDefault();
  });
  $('#paste-go').addEventListener('click', () => {
    const text = $('#paste').value;
    if (text.trim()) analyzeFiles([pastedFile(text)]);
  });
}

async function main() {
  try {
    const response = await fetch('catalogue.json');
    catalogue = await response.json();
  } catch (err) {
    setStatus(`catalogue.json: ${err}`, true);
  }
  applyLanguage(pickLanguage());
  setStatus(t('ui.status.loading'));
  try {
    await init();
  } catch (err) {
    setStatus(t('ui.status.failed', { error: err }), true);
    return;
  }
  $('#lang').addEventListener('change', (e) => {
    localStorage.setItem('tokscope.lang', e.target.value);
    applyLanguage(e.target.value);
    render();
  });
  $('#file-input').addEventListener('change', async (e) => {
    await analyzeFiles([...e.target.files]);
    e.target.value = '';
  });
  $('#example').addEventListener('click', () => loadExample().catch((err) => setStatus(String(err), true)));
  $('#clear').addEventListener('click', clearAll);
  wireDragAndDrop();
  wirePaste();
  setStatus(t('ui.status.ready'));
  document.body.dataset.ready = 'true';
}

main();
