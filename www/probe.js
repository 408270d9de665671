// "Measure this device": the bandwidth probe. Web Workers (probe-worker.js), each with its own
// wasm instance and buffer, run a plain read loop and the Q4_0 decode kernel; this module sweeps
// the working-set size and the worker count, shows the figures, the charts and the decode ceiling
// table, and hands the results to the analysis (the bandwidth.below-ceiling and
// thermal.sustained-drop findings).
//
// Options come from the URL, for automation and small devices: probe-mib (total buffer, default
// 1024, 256 on phones), probe-workers (default hardwareConcurrency + 1), probe-window-ms and
// probe-windows (those of `tokscope bench` are the default and the least), probe-sample-ms
// (sustained sampling period, default 2000).
import { el } from './dom.js';
import { drawChart, formatBytes } from './probe-chart.js';
import { coreConstants } from './core.js';
import { t, onLanguage } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

let ctx = null; // { core, build, module, onResult }
let running = null; // { workers, cancelled }
let last = null; // the last measurement, re-rendered on a language change
let sustained = null; // { points: [[t, gbps]], total }

class ProbeWorker {
  constructor() {
    this.worker = new Worker(new URL('probe-worker.js', import.meta.url), { type: 'module' });
    this.next = 0;
    this.pending = new Map();
    this.worker.onmessage = ({ data }) => {
      const p = this.pending.get(data.id);
      if (!p) return;
      this.pending.delete(data.id);
      if (data.error) p.reject(new Error(data.error));
      else p.resolve(data);
    };
    this.worker.onerror = (e) => this.failAll(new Error(e.message || 'the probe worker failed'));
  }

  call(msg) {
    this.next += 1;
    const id = this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  failAll(err) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  terminate() {
    this.worker.terminate();
    this.failAll(new Error('cancelled'));
  }
}

function options() {
  const q = new URLSearchParams(location.search);
  const num = (name, def) => {
    const v = Number(q.get(name));
    return q.has(name) && Number.isFinite(v) && v > 0 ? v : def;
  };
  const phone = /Android|iPhone|iPad|Mobile/i.test(navigator.userAgent) || (navigator.deviceMemory ?? 8) <= 4;
  const cores = navigator.hardwareConcurrency || 4;
  // The windows of `tokscope bench`, as least and default, so the two measure alike.
  const c = coreConstants();
  return {
    cores,
    totalBytes: num('probe-mib', phone ? 256 : 1024) * 2 ** 20,
    maxWorkers: Math.min(Math.round(num('probe-workers', cores + 1)), 32),
    windowMs: Math.max(c.probe_window_ms, num('probe-window-ms', c.probe_window_ms)),
    windows: Math.max(c.probe_windows, Math.round(num('probe-windows', c.probe_windows))),
    sampleMs: Math.max(250, num('probe-sample-ms', 2000)),
  };
}

function status(text, isError = false) {
  const s = $('#probe-status');
  s.textContent = text;
  s.classList.toggle('error', isError);
}

function progress(done, total) {
  const bar = $('#probe-progress');
  bar.hidden = false;
  bar.max = total;
  bar.value = done;
}

function setRunning(on) {
  $('#measure').disabled = on;
  $('#sustain').disabled = on;
  $('#probe-cancel').hidden = !on;
  if (!on) $('#probe-progress').hidden = true;
}

function cancel() {
  if (!running) return;
  running.cancelled = true;
  for (const w of running.workers) w.terminate();
}

/**
 * Starts `count` workers; worker i holds total/(i+1) bytes, so that with n workers at once each
 * can work on total/n and the n together always cover the whole total. Halves the total when the
 * browser cannot give that much memory.
 */
async function startWorkers(count, totalBytes, perWorker = (i) => totalBytes / (i + 1)) {
  let total = totalBytes;
  for (;;) {
    const workers = Array.from({ length: count }, () => new ProbeWorker());
    running.workers = workers;
    try {
      const infos = await Promise.all(workers.map((w, i) => w.call({
        cmd: 'init', dir: ctx.build.dir, module: ctx.module, bytes: Math.floor(perWorker(i) * (total / totalBytes)), seed: i + 1,
      })));
      return { workers, total, bytes: infos.map((x) => x.bytes), paths: infos[0].paths };
    } catch (err) {
      for (const w of workers) w.terminate();
      if (running.cancelled || total <= 16 * 2 ** 20 || !/allocate/.test(String(err))) throw err;
      total /= 2;
    }
  }
}

const sum = (v) => v.reduce((a, b) => a + b, 0);

async function measure() {
  if (running) return status(t('ui.probe.busy'));
  const o = options();
  const started = performance.now();
  running = { workers: [], cancelled: false };
  setRunning(true);
  try {
    const steps = { done: 0, total: 1 };
    const step = (text) => {
      status(text);
      progress(steps.done, steps.total);
      steps.done += 1;
    };
    step(t('ui.probe.phase.alloc', { mib: Math.round(o.totalBytes / 2 ** 20), n: o.maxWorkers }));
    const { workers, total, bytes, paths } = await startWorkers(o.maxWorkers, o.totalBytes);
    // Each call measures its jobs side by side (see probe-worker.js); resolves to their GB/s.
    const run = async (w, jobs, workingSet) => (await w.call({
      cmd: 'run', jobs, workingSet, windows: o.windows, windowMs: o.windowMs, warmup: true,
    })).gbps;
    const READ = { kind: 'read' };
    const sizes = [];
    for (let s = 16 * 1024; s < bytes[0]; s *= 4) sizes.push(s);
    sizes.push(bytes[0]);
    const best = paths[paths.length - 1];
    steps.total = 1 + sizes.length + 1 + workers.length;

    const bySize = [];
    for (const s of sizes) {
      step(t('ui.probe.phase.size', { size: formatBytes(s) }));
      bySize.push([s, (await run(workers[0], [READ], s))[0]]);
    }
    // The read loop and every kernel path on one worker, side by side over the whole buffer.
    step(t('ui.probe.phase.kernel', { path: paths.join(', ') }));
    const [read1w, ...perPath] = await run(workers[0], [READ, ...paths.map((path) => ({ kind: 'q4', path }))], bytes[0]);
    const q4_1w = Object.fromEntries(paths.map((path, i) => [path, perPath[i]]));
    const byWorkers = [];
    for (let n = 1; n <= workers.length; n += 1) {
      step(t('ui.probe.phase.workers', { n }));
      const ws = Math.floor(total / n);
      const team = workers.slice(0, n);
      const each = await Promise.all(team.map((w) => run(w, [READ, { kind: 'q4', path: best }], ws)));
      byWorkers.push({ n, read: sum(each.map((r) => r[0])), q4: sum(each.map((r) => r[1])) });
    }
    const peak = byWorkers.reduce((a, b) => (b.read > a.read ? b : a));
    const readBest = Math.max(peak.read, read1w);
    const q4Best = byWorkers.reduce((a, b) => (b.q4 > a.q4 ? b : a));
    last = {
      build: ctx.build.name,
      cores: o.cores,
      bufferBytes: bytes[0],
      totalBytes: total,
      seconds: (performance.now() - started) / 1000,
      read1w,
      readBest,
      readBestWorkers: readBest === read1w ? 1 : peak.n,
      ratioAtPeak: peak.q4 / peak.read,
      q4_1w,
      q4Best: q4Best.q4,
      q4BestWorkers: q4Best.n,
      best,
      bySize,
      byWorkers,
    };
    progress(1, 1);
    render();
    status(t('ui.probe.done', { s: last.seconds.toFixed(1), mib: Math.round(bytes[0] / 2 ** 20) }));
    report();
  } catch (err) {
    if (running.cancelled) status(t('ui.probe.cancelled'));
    else status(t('ui.probe.failed', { error: err?.message ?? err }), true);
  } finally {
    for (const w of running.workers) w.terminate();
    running = null;
    setRunning(false);
  }
}

/** Runs the best kernel path on all the workers that read fastest, without pause, for N minutes. */
async function sustain() {
  if (running) return status(t('ui.probe.busy'));
  const o = options();
  const minutes = Math.min(60, Math.max(0.1, Number($('#sustain-minutes').value) || 5));
  const total = minutes * 60;
  const n = last?.readBestWorkers ?? o.cores;
  running = { workers: [], cancelled: false };
  setRunning(true);
  sustained = { points: [], total };
  try {
    status(t('ui.probe.phase.alloc', { mib: Math.round(o.totalBytes / 2 ** 20), n }));
    const share = o.totalBytes / n;
    const { workers, total: bytesTotal, paths } = await startWorkers(n, o.totalBytes, () => share);
    const path = paths[paths.length - 1];
    const ws = bytesTotal / n;
    const t0 = performance.now();
    for (;;) {
      const rates = await Promise.all(workers.map((w) => w.call({
        cmd: 'run', jobs: [{ kind: 'q4', path }], workingSet: ws, windows: 1, windowMs: o.sampleMs, warmup: false,
      })));
      const elapsed = (performance.now() - t0) / 1000;
      const gbps = sum(rates.map((r) => r.gbps[0]));
      sustained.points.push([elapsed, gbps]);
      progress(Math.min(elapsed, total), total);
      status(t('ui.probe.sustained.running', { elapsed: elapsed.toFixed(0), total: total.toFixed(0), gbps: gbps.toFixed(2) }));
      renderSustained();
      if (elapsed >= total) break;
    }
    status(t('ui.probe.sustained.done', { n: sustained.points.length, s: total.toFixed(0) }));
  } catch (err) {
    if (running.cancelled) status(t('ui.probe.cancelled'));
    else status(t('ui.probe.failed', { error: err?.message ?? err }), true);
  } finally {
    for (const w of running.workers) w.terminate();
    running = null;
    setRunning(false);
    // Even a cancelled run says something about the first minutes: keep what was sampled.
    if (sustained.points.length) report();
  }
}

/** Gives the results to the analysis (evidence::DeviceProbe). */
function report() {
  if (!last && !sustained?.points.length) return;
  ctx.onResult({
    read_gbps_best: last?.readBest ?? 0,
    read_gbps_1w: last?.read1w ?? null,
    q4_gbps_best: last?.q4Best ?? null,
    sustained: sustained?.points ?? [],
  });
}


function figure(metric, value, label, note = '') {
  return el('div', { class: 'figure', 'data-metric': metric, 'data-value': String(+value.toFixed(4)) },
    el('div', { class: 'figure-label' }, label),
    el('div', { class: 'figure-value' }, t('ui.probe.gbps', { v: value.toFixed(2) })),
    el('div', { class: 'figure-note' }, note));
}

function render() {
  renderBuild();
  if (!last) return;
  $('#probe-results').hidden = false;
  const figs = [
    figure('browser.read_gbps_1w', last.read1w, t('ui.probe.read_1w')),
    figure('browser.read_gbps_best', last.readBest, t('ui.probe.read_best', { n: last.readBestWorkers })),
  ];
  for (const [path, v] of Object.entries(last.q4_1w)) {
    figs.push(figure(`browser.q4_gbps_1w.${path}`, v, t('ui.probe.q4_1w', { path }),
      t('ui.probe.ratio', { ratio: (v / last.read1w).toFixed(2) })));
  }
  figs.push(figure('browser.q4_gbps_best', last.q4Best, t('ui.probe.q4_best', { n: last.q4BestWorkers }),
    t('ui.probe.ratio', { ratio: last.ratioAtPeak.toFixed(2) })));
  const hidden = el('div', { class: 'figure-raw', hidden: '', 'data-metric': 'browser.buffer_bytes', 'data-value': String(last.bufferBytes) });
  const ratio = el('div', { class: 'figure-raw', hidden: '', 'data-metric': 'browser.q4_read_ratio_at_read_peak', 'data-value': String(+last.ratioAtPeak.toFixed(4)) });
  $('#probe-figures').replaceChildren(...figs, hidden, ratio);
  $('#probe-cores').textContent = t('ui.probe.cores', { n: last.cores });

  const read = t('ui.probe.legend.read');
  drawChart($('#chart-size'), [{ label: read, points: last.bySize }], {
    logX: true, xFormat: formatBytes, yLabel: 'GB/s', title: t('ui.probe.chart.size'),
  });
  drawChart($('#chart-workers'), [
    { label: read, points: last.byWorkers.map((p) => [p.n, p.read]) },
    { label: `${t('ui.probe.legend.q4')} (${last.best})`, points: last.byWorkers.map((p) => [p.n, p.q4]) },
  ], { yLabel: 'GB/s', title: t('ui.probe.chart.workers') });
  renderCeiling(last.readBest);
  renderSustained();
}

function renderCeiling(bw) {
  const table = JSON.parse(ctx.core.ceiling_table_json(bw, coreConstants().ceiling_context));
  $('#ceiling-title').textContent = t('ui.probe.ceiling.title', { bw: bw.toFixed(1) });
  $('#ceiling-assumption').textContent = t('ui.probe.ceiling.assumption', {
    ctx: table.context, eta: table.eta, c: table.fixed_cost_ms,
  });
  const head = el('tr', {}, ...['model', 'quant', 'size', 'bytes', 'ceiling', 'expected']
    .map((k) => el('th', { scope: 'col' }, t(`ui.probe.col.${k}`))));
  const gb = (b) => `${(b / 1e9).toFixed(2)} GB`;
  const rate = (v) => (v >= 10 ? v.toFixed(0) : v.toFixed(1));
  const rows = table.rows.map((r) => el('tr', { 'data-model': r.model, 'data-quant': r.quant },
    el('td', {}, r.model), el('td', {}, r.quant), el('td', {}, gb(r.weight_bytes)),
    el('td', {}, gb(r.bytes_per_token)),
    el('td', { 'data-value': String(r.ceiling_tok_s) }, rate(r.ceiling_tok_s)),
    el('td', { 'data-value': String(r.expected_tok_s) }, rate(r.expected_tok_s))));
  $('#ceiling').replaceChildren(el('thead', {}, head), el('tbody', {}, ...rows));
}

function renderSustained() {
  const canvas = $('#chart-sustained');
  if (!sustained?.points.length) return;
  $('#probe-results').hidden = false;
  canvas.hidden = false;
  $('#chart-sustained-title').hidden = false;
  const ticks = sustained.points.length > 12
    ? sustained.points.filter((_, i) => i % Math.ceil(sustained.points.length / 10) === 0).map(([x]) => x)
    : undefined;
  drawChart(canvas, [{ label: t('ui.probe.legend.q4'), points: sustained.points }], {
    yLabel: 'GB/s', xLabel: 's', xTicks: ticks, xFormat: (x) => x.toFixed(0), title: t('ui.probe.chart.sustained'),
  });
}

function renderBuild() {
  const note = $('#probe-build');
  note.textContent = t(`ui.probe.build.${ctx.build.name}`);
  note.dataset.build = ctx.build.name;
  note.classList.toggle('warning', ctx.build.name === 'scalar');
}

/**
 * The probe beside a report (`report.device`): a reference line, and the "this log came from
 * this device" checkbox that decides whether its bandwidth is the logs' ceiling. The answer is
 * the analysis's (the core keeps it until Clear); `onToggle` is absent for a shared report.
 */
export function renderDeviceRef(box, report, onToggle) {
  box.replaceChildren();
  const d = report?.device;
  box.hidden = !d || !report.inputs?.length;
  if (box.hidden) return;
  box.dataset.applies = String(d.applies);
  const bw = d.read_gbps_best.toFixed(d.read_gbps_best >= 10 ? 1 : 2);
  const check = el('input', { type: 'checkbox', id: 'probe-same-device' });
  check.checked = d.applies;
  check.disabled = !onToggle;
  check.addEventListener('change', () => onToggle?.(check.checked));
  box.append(
    el('p', { class: 'device-ref-figure' }, t('ui.probe.reference', { bw })),
    el('label', { class: 'device-ref-check' }, check, ' ', t('ui.probe.same-device')),
    el('p', { class: 'note' }, t(d.applies ? 'ui.probe.reference.applied' : 'ui.probe.reference.not-applied')));
}

export function initProbe(context) {
  ctx = context;
  $('#measure').addEventListener('click', () => measure());
  $('#sustain').addEventListener('click', () => sustain());
  $('#probe-cancel').addEventListener('click', cancel);
  onLanguage(render);
  $('#measure').disabled = false;
  $('#sustain').disabled = false;
  renderBuild();
}
