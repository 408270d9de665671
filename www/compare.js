// Device A vs device B (docs/report.md, `comparison`): runs grouped by model, each group's
// differing facts side by side against its reference, and the runs of other models listed, not
// compared. With `onChoice`, every run can be moved to another group or left out and each group's
// reference picked; the core works the report out again with that choice (a share view, which has
// no analysis behind it, shows the groups without the controls).
import { el, fmtNum } from './dom.js';
import { t } from './i18n.js';

const letter = (i) => String.fromCharCode(65 + Math.min(i, 25));

/** The choice that keeps the comparison as shown: every run pinned where it is. */
function currentChoice(c) {
  return {
    groups: [...c.groups.map((g) => [...g.inputs]), ...c.unrelated.map((u) => [u.input])],
    excluded: c.excluded.map((x) => x.input),
    reference: c.groups.filter((g) => g.reference_chosen).map((g) => g.reference),
  };
}

/** `choice` with `input` taken out of every group and of the excluded list. */
function without(choice, input) {
  return {
    groups: choice.groups.map((g) => g.filter((n) => n !== input)).filter((g) => g.length),
    excluded: choice.excluded.filter((n) => n !== input),
    reference: choice.reference,
  };
}

/**
 * The choice after moving `input` to `target`: `group:<n>` (the n-th group shown), `with:<name>`
 * (a group with another listed run), `alone` (not compared), `out` (left out), `auto`.
 */
export function moved(c, input, target) {
  const before = currentChoice(c);
  const next = without(before, input);
  const [kind, arg] = [target.split(':')[0], target.slice(target.indexOf(':') + 1)];
  if (kind === 'group') {
    const inputs = c.groups[Number(arg)]?.inputs ?? [];
    const home = next.groups.find((g) => g.some((n) => inputs.includes(n)));
    if (home) home.push(input);
    else next.groups.push([input]);
  } else if (kind === 'with') {
    const home = next.groups.find((g) => g.includes(arg));
    if (home) home.push(input);
    else next.groups.push([arg, input]);
  } else if (kind === 'alone') {
    next.groups.push([input]);
  } else if (kind === 'out') {
    next.excluded.push(input);
  }
  // `auto`: named nowhere, so the core matches it like a new input.
  return next;
}

/** The choice with `input` as the reference of the group it is in. */
export function withReference(c, input) {
  const choice = currentChoice(c);
  const group = c.groups.find((g) => g.inputs.includes(input));
  choice.reference = choice.reference.filter((n) => !group?.inputs.includes(n)).concat(input);
  return choice;
}

function select(label, options, current, onChange) {
  const s = el('select', { class: 'compare-move', 'aria-label': label });
  for (const [value, text] of options) {
    const o = el('option', { value }, text);
    if (value === current) o.selected = true;
    s.append(o);
  }
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

/** Where focus goes after the re-render a control asked for: the same control of the same run. */
let refocus = null;

/** Renders `comparison` into `box`; hides the box when there is nothing to compare. */
export function renderComparison(box, comparison, { onChoice } = {}) {
  box.replaceChildren();
  box.hidden = !comparison;
  if (!comparison) return;
  const c = {
    groups: comparison.groups ?? [],
    unrelated: comparison.unrelated ?? [],
    excluded: comparison.excluded ?? [],
  };
  box.append(el('h2', {}, t('ui.compare')));
  if (onChoice) box.append(el('p', { class: 'hint' }, t('ui.compare.hint')));
  const choose = (choice, input, control) => {
    refocus = { input, control };
    onChoice(choice);
  };
  const groupOptions = c.groups.map((g, i) => [`group:${i}`, t('ui.compare.move.group', { n: i + 1 })]);
  const moveLabel = (name) => `${t('ui.compare.move')}: ${name}`;
  if (!c.groups.length) box.append(el('p', { class: 'muted' }, t('ui.compare.none')));

  c.groups.forEach((g, gi) => {
    const section = el('section', { class: 'compare-group', 'data-group': String(gi), 'data-reference': g.reference },
      el('h3', {}, t('ui.compare.group', { n: gi + 1, model: g.model })));
    const refNote = g.reference_chosen ? t('ui.compare.reference.chosen') : t('ui.compare.reference.fastest');
    if (onChoice) {
      const fieldset = el('fieldset', { class: 'compare-members' },
        el('legend', {}, `${t('ui.compare.reference.pick')} (${refNote})`));
      g.inputs.forEach((name, i) => {
        const decode = g.rows.find((r) => r.fact === 'decode')?.values[i];
        const radio = el('input', { type: 'radio', name: `compare-ref-${gi}`, value: name, checked: name === g.reference });
        radio.addEventListener('change', () => { if (radio.checked) choose(withReference(c, name), name, 'radio'); });
        const others = [...groupOptions, ['alone', t('ui.compare.move.alone')], ['out', t('ui.compare.move.exclude')]];
        fieldset.append(el('div', { class: 'compare-member', 'data-input': name },
          el('label', { class: 'compare-ref' }, radio, ` ${letter(i)}: ${name}`, decode ? ` · ${decode}` : ''),
          select(moveLabel(name), others, `group:${gi}`, (v) => choose(moved(c, name, v), name, 'select'))));
      });
      section.append(fieldset);
    } else {
      section.append(el('p', { class: 'muted' }, `${t('ui.compare.reference')}: ${g.reference} (${refNote})`));
    }
    const table = el('table', { class: 'compare' });
    const head = el('tr', {}, el('th', {}, t('ui.compare.fact')));
    g.inputs.forEach((name, i) => head.append(el('th', { scope: 'col' },
      `${letter(i)}: ${name}${i === 0 ? ` (${t('ui.compare.reference')})` : ''}`)));
    table.append(head);
    for (const row of g.rows.filter((r) => r.differs)) {
      const tr = el('tr', { class: 'differs', 'data-fact': row.fact }, el('th', { scope: 'row' }, row.label));
      for (const v of row.values) tr.append(el('td', {}, v ?? '—'));
      table.append(tr);
    }
    // The table scrolls inside its box on a narrow screen, never the page.
    section.append(el('div', { class: 'table-scroll', tabIndex: 0, 'aria-label': t('ui.compare.group', { n: gi + 1, model: g.model }) }, table),
      el('p', { class: 'muted' }, t('ui.compare.same')));
    box.append(section);
  });

  const list = (key, kind, runs, current, optionsFor) => {
    if (!runs.length) return;
    const ul = el('ul', { class: `compare-list compare-${kind}` });
    for (const r of runs) {
      const meta = [r.model, r.decode_tok_s != null && `${fmtNum(r.decode_tok_s)} tok/s`].filter(Boolean).join(' · ');
      const li = el('li', { 'data-input': r.input }, el('span', { class: 'run-name' }, r.input), meta ? ` — ${meta}` : '');
      if (onChoice) li.append(' ', select(moveLabel(r.input), optionsFor(r), current, (v) => choose(moved(c, r.input, v), r.input, 'select')));
      ul.append(li);
    }
    box.append(el('h3', {}, t(key)), ul);
  };
  list('ui.compare.unrelated', 'alone', c.unrelated, 'alone', (r) => [
    ['alone', t('ui.compare.move.alone')],
    ...groupOptions,
    ...c.unrelated.filter((o) => o.input !== r.input).map((o) => [`with:${o.input}`, `${t('ui.compare.move.new')}: ${o.input}`]),
    ['out', t('ui.compare.move.exclude')],
  ]);
  list('ui.compare.excluded', 'excluded', c.excluded, 'out', () => [
    ['out', t('ui.compare.move.exclude')],
    ['auto', t('ui.compare.auto')],
    ...groupOptions,
  ]);
  if (onChoice) {
    const reset = el('button', { type: 'button', id: 'compare-auto' }, t('ui.compare.auto'));
    reset.addEventListener('click', () => {
      refocus = { control: 'reset' };
      onChoice({ groups: [], excluded: [], reference: [] });
    });
    box.append(el('p', {}, reset));
  }
  if (refocus) {
    const { input, control } = refocus;
    refocus = null;
    const target = control === 'reset' ? box.querySelector('#compare-auto')
      : [...box.querySelectorAll('[data-input]')].find((n) => n.dataset.input === input)
        ?.querySelector(control === 'radio' ? 'input[type=radio]' : 'select');
    target?.focus();
  }
}
