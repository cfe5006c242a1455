import { apiKey } from './api.js';
import { el, show, errorBox } from './ui.js';

const shown = 200;
let running = null;

/** Stops the live feed when the studio moves to another view. */
export function stopChanges() {
  running?.abort();
  running = null;
}

/**
 * The live changes pane: GET /changes read as a stream (fetch, so the API key header goes along; EventSource cannot
 * send one), newest first, the last 200 kept. Filter by key prefix or collection.
 */
export function renderChanges() {
  stopChanges();
  const prefix = el('input', { 'data-testid': 'changes-prefix', placeholder: 'key prefix, e.g. orders/', size: 24 });
  const collection = el('input', { 'data-testid': 'changes-collection', placeholder: 'collection', size: 16 });
  const state = el('span', { className: 'muted', 'data-testid': 'changes-state' }, 'connecting');
  const rows = el('tbody');
  const list = el('table', { 'data-testid': 'changes' },
    el('thead', {}, el('tr', {}, el('th', { className: 'num' }, 'Etag'), el('th', {}, 'Change'), el('th', {}, 'Key / index'), el('th', {}, 'Collection'))), rows);
  const status = el('div');

  function add(name, change) {
    rows.prepend(el('tr', { 'data-kind': name },
      el('td', { className: 'num' }, change.Etag), el('td', {}, name),
      el('td', {}, change.Key ? el('a', { href: `#doc/${encodeURIComponent(change.Key)}` }, change.Key) : change.IndexName ?? ''),
      el('td', {}, change.EntityName ?? '')));
    while (rows.children.length > shown) rows.lastChild.remove();
  }

  async function follow() {
    stopChanges();
    rows.replaceChildren();
    status.replaceChildren();
    const controller = new AbortController();
    running = controller;
    const query = new URLSearchParams();
    if (prefix.value.trim()) query.append('prefix', prefix.value.trim());
    if (collection.value.trim()) query.append('collection', collection.value.trim());
    query.append('from', '0');
    const headers = { Accept: 'text/event-stream' };
    if (apiKey()) headers['X-Api-Key'] = apiKey();
    try {
      const response = await fetch(`/changes?${query}`, { headers, signal: controller.signal, credentials: 'same-origin', mode: 'same-origin' });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      state.textContent = 'live';
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) add(name, JSON.parse(data));
        }
      }
      state.textContent = 'closed';
    } catch (error) {
      if (controller.signal.aborted) return;
      state.textContent = 'failed';
      status.append(errorBox(error));
    }
  }

  show(el('h2', {}, 'Changes'),
    el('div', { className: 'toolbar' }, prefix, collection,
      el('button', { onclick: follow, 'data-testid': 'changes-follow' }, 'Follow'), state),
    status, list);
  follow();
}
