// Small DOM helpers: el('tag', {attrs}, ...children). Text is always set as text, never as HTML.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (name === 'className') node.className = value;
    else node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export const view = () => document.getElementById('view');

export function show(...children) {
  // replaceChildren would write a null or false (an absent optional part) as the text "null" or "false".
  view().replaceChildren(...children.flat().filter(child => child !== null && child !== undefined && child !== false));
}

/** What the view shows while a route waits for its data, so no view is ever blank. */
export function loading() {
  view().replaceChildren(el('p', { className: 'muted', 'data-testid': 'loading' }, 'Loading…'));
}

export const errorBox = (error, testId = 'error') => el('div', { className: 'error', 'data-testid': testId, role: 'alert' }, error.message ?? String(error));

export const pretty = value => JSON.stringify(value, null, 2);

/** A table: columns are [header, value(row) => text|Node, className?]; onClick(row) makes rows links. */
export function table(columns, rows, onClick, testId) {
  return el('table', { 'data-testid': testId },
    el('thead', {}, el('tr', {}, columns.map(([header, , cls]) => el('th', { className: cls }, header)))),
    el('tbody', {}, rows.map(row => el('tr', { className: onClick ? 'link' : undefined, onclick: onClick ? () => onClick(row) : undefined },
      columns.map(([, value, cls]) => el('td', { className: cls }, value(row)))))));
}

export const fact = (label, value, testId) => el('div', {}, el('span', { className: 'muted' }, label), el('b', { 'data-testid': testId }, value));

/** Parses a textarea as a JSON object, or throws an Error naming what is wrong. */
export function parseObject(text, what) {
  let value;
  try { value = JSON.parse(text); } catch (e) { throw new Error(`${what} is not valid JSON: ${e.message}`); }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} must be a JSON object.`);
  return value;
}
