// The runs of a report (docs/report.md, `runs[]`): one compact facts table per run. Every
// value comes from a file, so it is set as text, never as HTML.
import { t } from './i18n.js';

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function phase(p) {
  if (!p || p.tok_s == null) return null;
  let s = `${p.tok_s.toFixed(2)} tok/s`;
  if (p.tokens != null) s += ` (${p.tokens} tok`;
  if (p.ms != null) s += `${p.tokens != null ? ', ' : ' ('}${(p.ms / 1000).toFixed(2)} s`;
  if (p.tokens != null || p.ms != null) s += ')';
  if (p.derived) s += ` [${t('ui.fact.derived')}]`;
  return s;
}

/** [field, text] pairs of one run, only the facts the log stated. */
export function runFacts(run, labels = {}) {
  const on = Object.entries(run.cpu_features ?? {}).filter(([, v]) => v).map(([k]) => k);
  const off = Object.entries(run.cpu_features ?? {}).filter(([, v]) => !v).map(([k]) => k);
  const threads = [run.n_threads, run.n_threads_batch, run.hw_threads];
  const rows = [
    ['framework', labels[run.framework] ?? run.framework],
    ['build', run.build],
    ['backend', run.backend],
    ['devices', run.devices?.join(', ')],
    ['model', run.model],
    ['params', run.params != null ? `${(run.params / 1e9).toFixed(2)} B` : null],
    ['model_bytes', run.model_bytes != null ? `${(run.model_bytes / 1e9).toFixed(2)} GB` : null],
    ['quant', run.quant],
    ['bits_per_weight', run.bits_per_weight],
    ['tensor_types', run.tensor_types ? Object.entries(run.tensor_types).map(([k, v]) => `${k} ${v}`).join(', ') : null],
    ['threads', threads.some((v) => v != null) ? threads.map((v) => v ?? '?').join(' / ') : null],
    ['cpu_features', on.length ? on.join(', ') : null],
    ['cpu_features_off', off.length ? off.join(', ') : null],
    ['cpu_clusters', run.cpu_clusters?.length ? run.cpu_clusters.map((c) => `[${c.cpus.join(' ')}] ${Math.round(c.max_khz / 1000)} MHz`).join(', ') : null],
    ['buffers_mib', run.buffers_mib ? Object.entries(run.buffers_mib).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ') : null],
    ['prefill', phase(run.prefill)],
    ['decode', phase(run.decode)],
    ['bench', run.bench?.length ? run.bench.map((b) => `${b.test} ${b.tok_s.toFixed(2)}${b.stddev != null ? ` ± ${b.stddev.toFixed(2)}` : ''}${b.n_threads != null ? ` (${b.n_threads}t)` : ''}`).join(', ') : null],
    ['load_ms', run.load_ms != null ? `${(run.load_ms / 1000).toFixed(2)} s` : null],
  ];
  return rows.filter(([, v]) => v != null && v !== '');
}

/**
 * Renders `runs` into `box`: a heading per run (input and lines) and its facts table. `inputs`
 * (the report's) give the frameworks' display names.
 */
export function renderRuns(box, runs, inputs = []) {
  const labels = Object.fromEntries(inputs.filter((i) => i.framework).map((i) => [i.framework, i.framework_label]));
  box.replaceChildren();
  if (!runs?.length) {
    box.append(cell('p', t('ui.runs.none'), { class: 'muted' }));
    return;
  }
  runs.forEach((run, i) => {
    const where = run.line_start != null ? `${run.input}:${run.line_start}-${run.line_end ?? run.line_start}` : run.input;
    const table = document.createElement('table');
    table.className = 'facts';
    for (const [field, value] of runFacts(run, labels)) {
      const tr = document.createElement('tr');
      tr.setAttribute('data-fact', field);
      tr.append(cell('th', t(`ui.fact.${field}`)), cell('td', String(value)));
      table.append(tr);
    }
    const section = document.createElement('section');
    section.className = 'run';
    section.setAttribute('data-run', String(i));
    section.setAttribute('data-input', run.input);
    section.append(cell('h3', where), table);
    box.append(section);
  });
}
