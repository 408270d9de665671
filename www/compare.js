// Device A vs device B (docs/report.md, `comparison`): the facts that differ between the
// representative runs of two or more dropped logs, side by side and highlighted.

function cell(tag, text, attrs = {}) {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Renders `comparison` into `box`; hides the box when there is nothing to compare. */
export function renderComparison(box, comparison, t) {
  box.replaceChildren();
  box.hidden = !comparison;
  if (!comparison) return;
  box.append(cell('h2', t('ui.compare')));
  const table = document.createElement('table');
  table.className = 'compare';
  const head = document.createElement('tr');
  head.append(cell('th', t('ui.compare.fact')));
  comparison.inputs.forEach((name, i) => head.append(cell('th', `${String.fromCharCode(65 + Math.min(i, 25))}: ${name}`)));
  table.append(head);
  for (const row of comparison.rows.filter((r) => r.differs)) {
    const tr = document.createElement('tr');
    tr.className = 'differs';
    tr.setAttribute('data-fact', row.fact);
    tr.append(cell('th', row.label));
    for (const v of row.values) tr.append(cell('td', v ?? '—'));
    table.append(tr);
  }
  box.append(table, cell('p', t('ui.compare.same'), { class: 'muted' }));
}
