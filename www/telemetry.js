// Telemetry over time: the report's series as stacked panels (frequency, temperature, power,
// tokens/s, battery) on one shared time axis, drawn by the wasm core (plotters on a <canvas>),
// with the findings' time ranges shaded. Navigation and the value readout are chart-nav.js's;
// every panel moves together because they are one chart. Each input's times count from its
// origin (the report's inputs[].time_origin_epoch_s): inputs with unrelated clocks each start
// near 0 rather than months apart. `createChart` is the reusable part: any
// module with a chart spec (crate/src/chart/mod.rs) can mount one and link views.
import { getCore } from './core.js';
import { navigate, fmtTime } from './chart-nav.js';
import { fmtNum } from './dom.js';
import { t } from './i18n.js';

const MAX_CPU_LINES = 8;
const MAX_LINES = 8;

/** Groups CPU frequency series into clusters by their peak clock (within 3 %), per input. */
function cpuLines(series) {
  const cpus = series.filter((s) => s.quantity === 'cpu-freq');
  const peak = (s) => s.points.reduce((m, p) => Math.max(m, p[1]), 0);
  if (cpus.length <= MAX_CPU_LINES) {
    return cpus.map((s) => ({ label: `cpu${s.cpu}`, points: s.points }));
  }
  const clusters = [];
  for (const s of cpus) {
    const p = peak(s);
    const c = clusters.find((k) => k.input === s.input && Math.abs(k.peak - p) <= 0.03 * Math.max(k.peak, p));
    if (c) c.members.push(s);
    else clusters.push({ input: s.input, peak: p, members: [s] });
  }
  // One line per cluster: its fastest member, named by the CPUs it stands for.
  return clusters.map((c) => {
    const ids = c.members.map((m) => m.cpu).sort((a, b) => a - b);
    const rep = c.members.reduce((a, b) => (peak(b) > peak(a) ? b : a));
    return { label: `CPU ${ids[0]}-${ids[ids.length - 1]}`, points: rep.points };
  });
}

const isMemoryClock = (name) => /mem|emc|ddr|dram|uncore|ring|tsc/i.test(name);

function biggest(lines, n = MAX_LINES) {
  const peak = (l) => l.points.reduce((m, p) => Math.max(m, p[1]), -Infinity);
  return [...lines].sort((a, b) => peak(b) - peak(a)).slice(0, n);
}

/**
 * The chart spec (crate/src/chart/mod.rs) for a report; `null` when it has no series. `shifts`
 * maps an input name to seconds added to its times (inputs recorded without a shared clock).
 */
export function telemetrySpec(report, shifts = new Map()) {
  const series = (report.series ?? []).map((s) => {
    const d = shifts.get(s.input) ?? 0;
    return d ? { ...s, points: s.points.map(([x, v]) => [x + d, v]) } : s;
  });
  if (!series.length) return null;
  const label = (s) => (s.name ?? s.sensor ?? s.rail ?? s.source) + (report.inputs.length > 1 ? ` · ${s.input.split('/').pop()}` : '');
  const of = (q) => series.filter((s) => s.quantity === q);
  const panels = [];
  const freq = [...cpuLines(series),
    ...of('clock-freq').filter((s) => !isMemoryClock(s.name)).map((s) => ({ label: label(s), points: s.points }))];
  if (freq.length) panels.push({ key: 'freq', lines: freq });
  const temps = biggest(of('temperature').map((s) => ({ label: label(s), points: s.points })));
  if (temps.length) panels.push({ key: 'temp', lines: temps });
  const watts = (s) => s.points.map(([x, v]) => [x, v / 1000]);
  const power = biggest(of('power').map((s) => ({ label: label(s), points: watts(s) })));
  if (power.length) panels.push({ key: 'power', lines: power });
  // Supply rails (a board's 5 V input, a battery): a 0.9 V core rail on the same axis would
  // flatten their dips, so rails below half the highest one stay out.
  const volts = of('voltage').map((s) => ({ label: label(s), points: s.points.map(([x, v]) => [x, v / 1000]) }));
  const top = Math.max(...volts.map((l) => l.points.reduce((m, p) => Math.max(m, p[1]), -Infinity)));
  const supply = biggest(volts.filter((l) => l.points.some((p) => p[1] >= top / 2)));
  if (supply.length) panels.push({ key: 'voltage', lines: supply });
  const tokens = of('tokens-per-second').map((s) => ({ label: label(s), points: s.points }));
  if (tokens.length) panels.push({ key: 'tokens', lines: tokens });
  const battery = [...of('battery-level').map((s) => ({ label: '%', points: s.points })),
    ...of('charging').map((s) => ({ label: t('ui.telemetry.line.plugged'), points: s.points.map(([x, v]) => [x, v * 100]) }))];
  if (battery.length) panels.push({ key: 'battery', lines: battery });
  if (!panels.length) return null;
  const shades = [];
  for (const f of report.findings) {
    for (const e of f.evidence) {
      if (e.t_start_s != null && e.t_end_s != null) {
        const d = shifts.get(e.input) ?? 0;
        shades.push({ t0: e.t_start_s + d, t1: e.t_end_s + d, label: f.id, severity: f.severity });
      }
    }
  }
  return {
    panels: panels.map((p) => ({ title: t(`ui.telemetry.panel.${p.key}`), lines: p.lines })),
    shades,
    x_label: t('ui.telemetry.axis'),
  };
}

/** The readout at time `at`: each panel's lines with a value there, and the ranges covering it. */
function readoutText(chart, spec, at) {
  const values = JSON.parse(chart.values_at(at));
  const parts = [];
  spec.panels.forEach((p, i) => {
    const here = p.lines.map((l, k) => [l.label, values[i]?.[k]]).filter(([, v]) => v != null);
    if (here.length) parts.push(`${p.title}: ${here.map(([l, v]) => `${l} ${fmtNum(v)}`).join(', ')}`);
  });
  const shades = spec.shades.filter((s) => s.t0 <= at && at <= s.t1).map((s) => s.label);
  if (shades.length) parts.push([...new Set(shades)].join(', '));
  const time = t('ui.chart.readout.time', { t: fmtTime(at) });
  // Panels apart with a bar: line labels carry ' · input'.
  return parts.length ? `${time} | ${parts.join(' | ')}` : `${time} | ${t('ui.chart.readout.none')}`;
}

/**
 * Mounts a chart on `canvas`, its readout in `out`. Returns { view, setView(x0, x1), reset(),
 * redraw(), onView(fn), toPng(name), destroy() }; views can be linked with onView + setView.
 */
export function createChart(canvas, spec, { cssHeight, out } = {}) {
  const core = getCore();
  const chart = new core.Chart(JSON.stringify(spec));
  const stats = (window.__tokscopeChartStats ??= { draws: 0, lastMs: 0, maxMs: 0, samples: [] });

  function size() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(320, canvas.clientWidth || canvas.parentElement?.clientWidth || 800);
    const h = cssHeight ?? core.chart_height(spec.panels.length);
    canvas.style.height = `${h}px`;
    canvas.width = Math.round(w * dpr);
    canvas.height = Math.round(h * dpr);
    return dpr;
  }
  let dpr = size();

  function draw(view) {
    const start = performance.now();
    const points = chart.draw(canvas, view.x0, view.x1, dpr);
    const ms = performance.now() - start;
    stats.draws += 1;
    stats.lastMs = ms;
    stats.maxMs = Math.max(stats.maxMs, ms);
    stats.samples.push(ms);
    if (stats.samples.length > 500) stats.samples.shift();
    canvas.dataset.drawMs = ms.toFixed(2);
    canvas.dataset.points = String(points);
  }
  /** The plot area in CSS pixels, from the core's layout in device pixels. */
  function plotX() {
    const k = canvas.getBoundingClientRect().width / canvas.width;
    const [left, right] = chart.plot_x_range(canvas.width, dpr);
    return [left * k, right * k];
  }
  const nav = navigate(canvas, {
    extent: chart.extent(), draw, plotX, out, readout: (at) => readoutText(chart, spec, at),
  });
  const onResize = () => { dpr = size(); nav.redraw(); };
  window.addEventListener('resize', onResize);

  return {
    get view() { return nav.view; },
    setView: nav.setView,
    reset: nav.reset,
    redraw: nav.redraw,
    onView: nav.onView,
    toPng(name = 'tokscope-chart.png') {
      canvas.toBlob((blob) => {
        if (!blob) return;
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = name;
        a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      }, 'image/png');
    },
    destroy() {
      window.removeEventListener('resize', onResize);
      chart.free();
    },
  };
}

let current = null;
const shifts = new Map();

/** One number field per input with series: shifts that input on the time axis. */
function renderShifts(section, report) {
  const box = section.querySelector('.shift-box');
  box.replaceChildren();
  const inputs = [...new Set((report.series ?? []).map((s) => s.input))];
  if (inputs.length < 2) return;
  // Relative clocks (no origin) and unrelated absolute ones each count from their own start.
  const origin = (name) => report.inputs.find((i) => i.name === name)?.time_origin_epoch_s ?? `own:${name}`;
  if (new Set(inputs.map(origin)).size > 1) {
    const note = document.createElement('p');
    note.className = 'hint';
    note.dataset.origins = 'own';
    note.textContent = t('ui.telemetry.origins.own');
    box.append(note);
  }
  for (const name of inputs) {
    const field = document.createElement('input');
    field.type = 'number';
    field.step = 'any';
    field.value = String(shifts.get(name) ?? 0);
    field.dataset.input = name;
    field.addEventListener('change', () => {
      const v = Number(field.value);
      shifts.set(name, Number.isFinite(v) ? v : 0);
      drawSpec(section, report);
    });
    const label = document.createElement('label');
    label.append(`${t('ui.telemetry.shift')} ${name} `, field);
    box.append(label);
  }
}

function drawSpec(section, report) {
  current?.destroy();
  current = null;
  const box = section.querySelector('.chart-box');
  box.replaceChildren();
  const spec = telemetrySpec(report, shifts);
  section.hidden = !spec;
  if (!spec) return;
  const canvas = document.createElement('canvas');
  canvas.id = 'telemetry-chart';
  canvas.dataset.panels = spec.panels.map((p) => p.title).join('|');
  canvas.dataset.shades = spec.shades.map((s) => `${s.label}@${s.t0}-${s.t1}`).join('|');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${spec.panels.map((p) => p.title).join(', ')}. ${t('ui.chart.keys')}`);
  const out = document.createElement('p');
  out.id = 'telemetry-readout';
  box.append(canvas, out);
  try {
    current = createChart(canvas, spec, { out });
  } catch (err) {
    const p = document.createElement('p');
    p.className = 'problem error';
    p.textContent = t('ui.telemetry.failed', { error: String(err) });
    box.append(p);
    return;
  }
  section.querySelector('#telemetry-export').onclick = () => current?.toPng('tokscope-telemetry.png');
  section.querySelector('#telemetry-reset').onclick = () => current?.reset();
}

/** Renders (or clears) the telemetry section of the page for `report`. */
export function renderTelemetry(report) {
  const section = document.querySelector('#telemetry');
  if (!section) return;
  const names = new Set((report.series ?? []).map((s) => s.input));
  for (const k of [...shifts.keys()]) if (!names.has(k)) shifts.delete(k);
  renderShifts(section, report);
  drawSpec(section, report);
}

/** The mounted telemetry chart, for tests and linked views. */
export const telemetryChart = () => current;
