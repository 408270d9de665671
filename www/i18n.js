// The page's texts: the one bilingual catalogue (crate/src/catalogue.json, copied by the build), the
// same file the wasm core renders findings from, so the page and the core never disagree; and the
// language the user chose. Every module takes its texts from t() here: none holds a catalogue,
// a language or a text of its own.

let catalogue = {};
let lang = 'en';
let loading = null;

/** Starts the catalogue's download (once; start-up calls it first, so it overlaps the rest). */
export function loadCatalogue() {
  loading ??= fetch(new URL('catalogue.json', import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r.json();
  }).then((c) => { catalogue = c; });
  return loading;
}

/** The text of `key` in the current language, `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const template = catalogue[key]?.[lang] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** True once the catalogue holds `key` (before it loads, t() would show the key itself). */
export function hasText(key) {
  return key in catalogue;
}

/** The current language: 'en' or 'zh'. */
export function language() {
  return lang;
}

/** The language to start in: the one saved, or else the browser's (any zh is zh). */
export function preferredLanguage() {
  const saved = localStorage.getItem('tokscope.lang');
  if (saved === 'en' || saved === 'zh') return saved;
  const langs = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];
  return langs.some((l) => l.toLowerCase().startsWith('zh')) ? 'zh' : 'en';
}

/**
 * Switches the page to `next`: the static texts (data-i18n, data-i18n-placeholder), the title and
 * the picker. `chosen`: the user picked it, so it is saved and every onLanguage listener re-renders.
 */
export function setLanguage(next, { chosen = false } = {}) {
  lang = next === 'zh' ? 'zh' : 'en';
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  for (const node of document.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of document.querySelectorAll('[data-i18n-placeholder]')) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  document.title = t('ui.title');
  const picker = document.querySelector('#lang');
  if (picker) picker.value = lang;
  if (chosen) {
    localStorage.setItem('tokscope.lang', lang);
    document.dispatchEvent(new CustomEvent('tokscope:lang', { detail: lang }));
  }
}

/** Calls `fn(lang)` each time the user picks another language. */
export function onLanguage(fn) {
  document.addEventListener('tokscope:lang', (e) => fn(e.detail));
}
