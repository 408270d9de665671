// "Where the threads ran": the CPU topology (with a preset picker and a cluster editor), and per
// trace the thread timeline coloured by cluster, the per-CPU frequency strip and the residency
// table. The canvases are drawn by the wasm core (plotters; their sizes are the core's); the
// timeline and the strip of one trace share a view, zoomed and panned as chart-nav.js does, with
// a readout of the cluster of each thread and the clock of each CPU. File strings are text.
import { el } from './dom.js';
import { t } from './i18n.js';
import { getCore } from './core.js';
import { navigate, fmtTime } from './chart-nav.js';


const pct = (x) => `${Math.round(x * 100)}%`;

/** The cluster list of a topology, in the editor's syntax: `0-3:little,4-7:big@2400`. */
function specOf(topology) {
  const parts = [];
  let run = null;
  for (const c of topology.cpus) {
    const key = `${c.cluster}${c.max_mhz ? `@${Math.round(c.max_mhz)}` : ''}`;
    if (run && run.key === key && c.cpu === run.end + 1) run.end = c.cpu;
    else {
      if (run) parts.push(run);
      run = { start: c.cpu, end: c.cpu, key };
    }
  }
  if (run) parts.push(run);
  return parts.map((r) => `${r.start === r.end ? r.start : `${r.start}-${r.end}`}:${r.key}`).join(',');
}

function topologyBox(sched, apply) {
  const topo = sched.topology;
  const box = el('div', { class: 'sched-topology' });
  box.append(el('h3', {}, t('ui.sched.topology')));
  const source = el('p', { class: 'topology-source', 'data-source': topo.source },
    t('ui.sched.topology.source', { source: t(`ui.sched.source.${topo.source}`) })
      + (topo.preset ? ` · ${sched.presets.find((p) => p.id === topo.preset)?.label ?? topo.preset}` : ''));
  box.append(source);
  const cpus = el('p', { class: 'topology-cpus' });
  for (const c of topo.cpus) {
    cpus.append(el('span', { class: `cpu cluster-${c.cluster}`, 'data-cpu': String(c.cpu) },
      `cpu${c.cpu} ${c.cluster}${c.max_mhz ? ` ${Math.round(c.max_mhz)} MHz` : ''}${c.core ? ` ${c.core}` : ''}`));
  }
  box.append(cpus);

  const select = el('select', { id: 'sched-preset', 'aria-label': t('ui.sched.preset') },
    el('option', { value: '' }, t('ui.sched.preset.auto')));
  for (const p of sched.presets) select.append(el('option', { value: p.id }, p.label));
  if (topo.source === 'user' && topo.preset) select.value = topo.preset;
  select.addEventListener('change', () => apply({ topology: select.value }));

  const clusters = el('input', {
    id: 'sched-clusters', type: 'text', size: 40, value: specOf(topo), placeholder: t('ui.sched.clusters.placeholder'),
  });
  const threads = el('input', {
    id: 'sched-threads', type: 'text', size: 30, value: sched.threads_override ?? '', placeholder: t('ui.sched.threads.placeholder'),
  });
  const go = el('button', { type: 'button', id: 'sched-apply' }, t('ui.sched.apply'));
  go.addEventListener('click', () => apply({ topology: clusters.value, threads: threads.value }));
  box.append(el('div', { class: 'sched-controls' },
    el('label', {}, `${t('ui.sched.preset')} `, select),
    el('label', {}, `${t('ui.sched.clusters')} `, clusters),
    el('label', {}, `${t('ui.sched.threads')} `, threads),
    go));
  return box;
}

function canvas(id, width, height, label) {
  return el('canvas', { id, width, height, 'aria-label': label, role: 'img', class: 'time-chart' });
}

const CLUSTER = { L: 'little', M: 'mid', B: 'big', U: 'unknown' };

/** The readout of one trace at time t: each lane's cluster, each CPU's clock. */
function traceReadout(chart, at) {
  const r = JSON.parse(chart.readout(at));
  const lanes = r.lanes.filter(([, c]) => CLUSTER[c]).map(([name, c]) => `${name}: ${t(`ui.sched.col.${CLUSTER[c]}`)}`);
  const cpus = r.cpus.filter(([, mhz]) => mhz != null).map(([cpu, mhz]) => `cpu${cpu} ${Math.round(mhz)} MHz`);
  const parts = [...lanes, ...cpus];
  const time = t('ui.chart.readout.time', { t: fmtTime(at) });
  return `${time} | ${parts.length ? parts.join(' | ') : t('ui.chart.readout.none')}`;
}

/**
 * The timeline (and the frequency strip) of one trace: one TraceChart in the core, one view for
 * both canvases; each canvas navigates and reads out, and moving one moves the other.
 */
function mountTrace(section, trace, i, width) {
  let chart;
  try {
    chart = new (getCore().TraceChart)(JSON.stringify(trace));
  } catch (err) {
    section.append(el('p', { class: 'problem error' }, t('ui.telemetry.failed', { error: String(err) })));
    return null;
  }
  const title = t('ui.sched.timeline', { input: trace.input, duration: trace.duration_s.toFixed(2) });
  const keys = t('ui.chart.keys');
  const out = el('p', { id: `sched-readout-${i}` });
  const views = [];
  const plotX = (c) => () => {
    const [left, right] = chart.plot_x_range(width);
    const k = c.getBoundingClientRect().width / width;
    return [left * k, right * k];
  };
  const link = (nav) => {
    views.push(nav);
    nav.onView((v) => { for (const other of views) if (other !== nav) other.setView(v.x0, v.x1, false); });
  };
  const paint = (fn, id) => (v) => {
    try { chart[fn](id, width, v.x0, v.x1); } catch (err) { console.error(fn, err); }
  };
  const readout = (x) => traceReadout(chart, x);
  if (trace.timeline.lanes.length) {
    const id = `sched-timeline-${i}`;
    const c = canvas(id, width, chart.timeline_height(), title);
    section.append(c);
    link(navigate(c, { extent: chart.extent(), draw: paint('draw_timeline', id), plotX: plotX(c), readout, out, label: `${title}. ${keys}` }));
  }
  if (trace.freq.length) {
    const id = `sched-freq-${i}`;
    const c = canvas(id, width, chart.freq_height(), t('ui.sched.freq'));
    section.append(el('h4', {}, t('ui.sched.freq')), c);
    link(navigate(c, { extent: chart.extent(), draw: paint('draw_freq', id), plotX: plotX(c), readout, out, label: `${t('ui.sched.freq')}. ${keys}` }));
  }
  if (views.length) section.append(out);
  return chart;
}

function residencyTable(trace) {
  const unit = t(`ui.sched.unit.${trace.unit}`);
  const head = el('tr', {}, ...['ui.sched.col.thread', 'ui.sched.col.little', 'ui.sched.col.mid', 'ui.sched.col.big',
    'ui.sched.col.unknown', 'ui.sched.col.cpus'].map((k) => el('th', {}, t(k))),
  el('th', {}, t('ui.sched.col.total', { unit })));
  // Only switch events measure the wait for a CPU; samples and snapshots leave it null.
  const runnable = trace.threads.some((r) => r.runnable_s != null);
  if (runnable) head.append(el('th', {}, t('ui.sched.col.runnable')));
  const table = el('table', { class: 'residency' }, el('thead', {}, head));
  const body = el('tbody');
  for (const r of trace.threads) {
    const name = `${r.comm} ${r.pid != null ? `${r.pid}/` : ''}${r.tid}`;
    const row = el('tr', { 'data-tid': String(r.tid), 'data-inference': String(r.inference) },
      el('td', {}, name, r.inference ? el('span', { class: 'tag' }, ` ${t('ui.sched.inference')}`) : ''),
      el('td', { class: r.little >= 0.2 ? 'bad' : '' }, pct(r.little)),
      el('td', {}, pct(r.mid)), el('td', {}, pct(r.big)), el('td', {}, pct(r.unknown)),
      el('td', {}, r.cpus), el('td', {}, String(r.total)));
    if (runnable) row.append(el('td', {}, String(r.runnable_s ?? '')));
    body.append(row);
  }
  table.append(body);
  return table;
}

/** The TraceCharts on the page, freed when the section re-renders. */
const charts = [];

/**
 * Renders the report's `sched` section into #sched. `apply({topology, threads})` sends the user's choice to the live
 * analysis and re-renders (absent for a report loaded without its inputs).
 */
export function renderSched(sched, { apply }) {
  const box = document.querySelector('#sched');
  if (!box) return;
  for (const c of charts.splice(0)) c?.free();
  box.replaceChildren();
  box.hidden = !sched;
  if (!sched) return;
  box.append(el('h2', {}, t('ui.sched.title')), topologyBox(sched, apply));
  if (sched.traces.length) box.append(el('p', { class: 'hint' }, t('ui.chart.keys')));
  // The page's width, so a phone gets legible labels rather than a shrunken wide canvas.
  const width = Math.max(320, Math.min(1100, (box.clientWidth || 900) - 8));
  sched.traces.forEach((trace, i) => {
    const section = el('section', { class: 'sched-trace', 'data-input': trace.input });
    section.append(el('h3', {}, t('ui.sched.timeline', { input: trace.input, duration: trace.duration_s.toFixed(2) })));
    const legend = el('p', { class: 'legend' });
    for (const c of ['little', 'mid', 'big', 'unknown']) legend.append(el('span', { class: `swatch cluster-${c}` }, t(`ui.sched.col.${c}`)));
    section.append(legend);
    const hasCpu = trace.threads.some((r) => r.unknown < 1);
    if (!hasCpu && trace.threads.length) section.append(el('p', { class: 'problem info' }, t('ui.sched.no-cpu')));
    box.append(section);
    charts.push(mountTrace(section, trace, i, width));
    if (trace.threads.length) {
      section.append(el('h4', {}, t('ui.sched.residency')), el('div', { class: 'table-scroll' }, residencyTable(trace)));
    }
  });
}
