// The answer first (docs/report.md, Verdict): the headline, the key numbers, the ranked causes
// with their estimated impact, the gap of a comparison and what to add; then every finding card
// under the cause it belongs to.
import { el, fmtNum } from './dom.js';
import { findingCard } from './findings.js';
import { t } from './i18n.js';


function fmtFactor(x) {
  const s = x.toFixed(1);
  return x >= 10 && s.endsWith('.0') ? s.slice(0, -2) : s;
}

function impactText(c) {
  return c.impact.factor != null ? `${t('ui.verdict.impact')} ~${fmtFactor(c.impact.factor)}×` : t('ui.verdict.impact.unsized');
}

/** Renders the verdict of `report` into `box`; hides it for reports without one (old links). */
export function renderVerdict(box, report) {
  box.replaceChildren();
  const v = report?.verdict;
  box.hidden = !v;
  if (!v) return;
  const lead = v.causes.find((c) => c.severity !== 'info' && c.id !== 'measure');
  box.dataset.severity = lead?.severity ?? 'ok';
  box.append(el('h2', { id: 'verdict-title' }, t('ui.verdict')),
    el('p', { class: 'verdict-headline', id: 'verdict-headline' }, v.headline));
  if (v.runs?.length) {
    const ul = el('ul', { class: 'verdict-numbers' });
    for (const r of v.runs) {
      const parts = [];
      if (r.decode_tok_s != null) parts.push(el('span', { class: 'num' }, el('span', { class: 'num-main' }, fmtNum(r.decode_tok_s)), ` tok/s ${t('ui.verdict.decode')}`));
      if (r.prefill_tok_s != null) parts.push(el('span', { class: 'num' }, `${fmtNum(r.prefill_tok_s)} tok/s ${t('ui.verdict.prefill')}`));
      if (r.latency_ms != null) parts.push(el('span', { class: 'num' }, el('span', { class: 'num-main' }, fmtNum(r.latency_ms)), ` ms ${t('ui.verdict.latency')}`));
      if (r.ceiling_tok_s != null) parts.push(el('span', { class: 'num' }, `${t('ui.verdict.ceiling')} ${fmtNum(r.ceiling_tok_s)} tok/s`));
      if (!parts.length) continue;
      const li = el('li', { 'data-input': r.input }, el('span', { class: 'run-name' }, r.input + (r.reference ? ` · ${t('ui.verdict.reference')}` : '')), ...parts);
      ul.append(li);
    }
    if (ul.children.length) box.append(ul);
  }
  if (v.gap?.text) box.append(el('p', { class: 'verdict-gap', 'data-gap': String(v.gap.factor) }, v.gap.text));
  if (v.causes.length) {
    const ol = el('ol', { class: 'verdict-causes' });
    for (const c of v.causes) {
      const link = el('a', { href: `#cause-${c.id}` }, c.title);
      ol.append(el('li', { 'data-cause': c.id, 'data-severity': c.severity },
        el('span', { class: 'severity' }, t(`severity.${c.severity}`)), link,
        el('span', { class: 'impact' }, ` — ${impactText(c)}`),
        el('div', { class: 'basis' }, c.impact.basis)));
    }
    box.append(ol);
  }
  if (v.next?.length) {
    const ul = el('ul', { class: 'verdict-next' });
    for (const n of v.next) ul.append(el('li', {}, n));
    box.append(el('h3', {}, t('ui.verdict.next')), ul);
  }
}

/**
 * Every finding of `report` into `box`, grouped under its cause (ranked as the verdict ranks
 * them); a card no cause claims (the compare headline) comes first. Only the first card of the
 * first cause opens its details.
 */
export function renderFindingGroups(box, report) {
  box.replaceChildren();
  const findings = report.findings;
  const causes = report.verdict?.causes ?? [];
  const claimed = new Set(causes.flatMap((c) => c.finding_indexes ?? []));
  let first = true;
  const card = (f) => {
    const node = findingCard(f, first);
    first = false;
    return node;
  };
  findings.forEach((f, i) => { if (!claimed.has(i)) box.append(card(f)); });
  for (const c of causes) {
    const section = el('section', { class: 'cause', id: `cause-${c.id}`, 'data-cause': c.id, 'data-severity': c.severity },
      el('h3', { class: 'cause-title' }, el('span', { class: 'severity' }, t(`severity.${c.severity}`)), c.title,
        el('span', { class: 'impact' }, ` — ${impactText(c)}`)),
      el('p', { class: 'basis' }, c.impact.basis));
    for (const i of c.finding_indexes ?? []) if (findings[i]) section.append(card(findings[i]));
    box.append(section);
  }
}
