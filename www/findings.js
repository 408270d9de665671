// One finding card (docs/report.md, Finding): title, summary, and its evidence, lines, why and
// fix behind a disclosure, so a cause's cards read as a list of what was seen.
import { el } from './dom.js';
import { t } from './i18n.js';


// A kernel line placed on the telemetry axis has both: the line says where, the time when.
function where(e) {
  let at = e.input;
  if (e.line_start != null) {
    const range = e.line_end != null && e.line_end !== e.line_start ? `${e.line_start}-${e.line_end}` : `${e.line_start}`;
    at += `:${range}`;
  }
  if (e.t_start_s == null) return at;
  const span = e.t_end_s != null && e.t_end_s !== e.t_start_s ? `${e.t_start_s}–${e.t_end_s}` : `${e.t_start_s}`;
  return `${at} · t=${span} s`;
}

/** The card of finding `f`; its details start open when `open`. */
export function findingCard(f, open) {
  const article = el('article', { class: 'finding', 'data-finding-id': f.id, 'data-severity': f.severity },
    el('h3', {}, el('span', { class: 'severity' }, t(`severity.${f.severity}`)), f.title),
    el('div', { class: 'finding-id' }, f.id),
    el('p', { class: 'summary' }, f.summary));
  // One card stands for every input the finding was seen in.
  if (f.inputs?.length > 1) {
    article.append(el('p', { class: 'finding-inputs', 'data-inputs': String(f.inputs.length) },
      t('ui.finding.inputs', { n: f.inputs.length, list: f.inputs.join(', ') })));
  }
  const more = el('details', { class: 'finding-more', open });
  more.append(el('summary', {}, `${t('ui.evidence')} · ${t('ui.why')} · ${t('ui.fix')}`));
  if (f.evidence.length) {
    const ul = el('ul', { class: 'evidence' });
    for (const e of f.evidence) {
      const li = el('li', { 'data-input': e.input }, el('span', { class: 'where' }, where(e)), e.quote ?? '');
      if (e.line_start != null) li.setAttribute('data-line-start', String(e.line_start));
      if (e.line_end != null) li.setAttribute('data-line-end', String(e.line_end));
      if (e.t_start_s != null) li.setAttribute('data-t-start', String(e.t_start_s));
      if (e.t_end_s != null) li.setAttribute('data-t-end', String(e.t_end_s));
      ul.append(li);
    }
    more.append(el('h4', {}, t('ui.evidence')), ul);
  }
  for (const l of f.lines) {
    const text = `${t('ui.seen-on', { count: f.count ?? l.lines.length })} ${l.input}: ${l.lines.join(', ')}`
      + (f.lines_truncated ? ` ${t('ui.lines-truncated')}` : '');
    more.append(el('p', { class: 'lines', 'data-input': l.input, 'data-lines': l.lines.join(',') }, text));
  }
  more.append(el('h4', {}, t('ui.why')), el('p', { class: 'explain' }, f.explain),
    el('h4', {}, t('ui.fix')), el('p', { class: 'fix' }, f.fix));
  article.append(more);
  return article;
}
