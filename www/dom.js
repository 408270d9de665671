// The page's one way to build elements and to write a number, shared by every module.

/** Attributes set as attributes; every other key is set as the element's property if it has one. */
const ATTRIBUTE = /^(data-|aria-)|^(role|for|tabindex|colspan|rowspan)$/;

/**
 * `el('p', { class: 'hint', 'data-x': '1', textContent: '…' }, child, 'text')`: the element,
 * its attributes and properties, then its children (nodes or strings, set as text, never HTML).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v;
    else if (ATTRIBUTE.test(k) || !(k in node)) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
}

/** A number as the page writes it: 3 significant figures down to two decimals; — for none. */
export function fmtNum(x) {
  if (x == null || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
}
