import { request, getJson, bulkCommand, ApiError } from './api.js';
import { el, show, errorBox, pretty, table, parseObject } from './ui.js';
import { patchPanel } from './patch.js';

const pageSize = 25;

const metaOf = doc => doc['@metadata'] ?? {};
const withoutMetadata = doc => Object.fromEntries(Object.entries(doc).filter(([name]) => name !== '@metadata'));
// Names the server computes on every read; they are never sent back.
const storedMetadata = meta => Object.fromEntries(Object.entries(meta).filter(([name]) => !name.startsWith('@') && name.toLowerCase() !== 'last-modified'));

export const documentLink = key => `#doc/${encodeURIComponent(key)}`;

export function documentTable(documents, testId = 'documents') {
  return table([
    ['Key', d => metaOf(d)['@id']],
    ['Collection', d => metaOf(d)['Raven-Entity-Name'] ?? ''],
    ['ETag', d => metaOf(d)['@etag'], 'num'],
    ['Last modified', d => metaOf(d)['Last-Modified'] ?? ''],
  ], documents, d => { location.hash = documentLink(metaOf(d)['@id']); }, testId);
}

export function pager(start, count, total, go) {
  return el('div', { className: 'toolbar' },
    el('button', { disabled: start === 0, onclick: () => go(Math.max(0, start - pageSize)), 'data-testid': 'previous-page' }, '← Previous'),
    el('span', { 'data-testid': 'page-range' }, total === 0 ? 'none' : `${start + 1}–${start + count} of ${total}`),
    el('button', { disabled: start + count >= total, onclick: () => go(start + pageSize), 'data-testid': 'next-page' }, 'Next →'));
}

/** All documents, newest first. */
export async function renderDocuments(start = 0) {
  const page = await getJson(`/docs?start=${start}&pageSize=${pageSize}`);
  show(el('h2', {}, 'Documents ', el('span', { className: 'muted' }, '(newest first)')),
    el('div', { className: 'toolbar' }, el('a', { href: '#new' }, el('button', { className: 'primary', 'data-testid': 'new-document' }, 'New document'))),
    documentTable(page.Results),
    pager(start, page.Results.length, page.TotalResults, next => renderDocuments(next)));
}

async function load(key) {
  const found = await request('POST', '/queries', { body: [key] });
  return found.json.Results[0];
}

/** One document: its JSON and @metadata, edit and save with its etag, delete. */
export async function renderDocument(key, notice) {
  const doc = await load(key);
  if (!doc) {
    show(el('h2', {}, key), errorBox(new Error(`There is no document '${key}'.`)));
    return;
  }
  const meta = metaOf(doc);
  const etag = meta['@etag'];
  const data = el('textarea', { 'data-testid': 'document-json', spellcheck: 'false' });
  data.value = pretty(withoutMetadata(doc));
  const metadata = el('textarea', { 'data-testid': 'document-metadata', spellcheck: 'false' });
  metadata.value = pretty(storedMetadata(meta));
  const status = el('div', { 'data-testid': 'document-status' });
  if (notice) status.append(el('div', { className: 'notice', 'data-testid': 'notice' }, notice));

  async function save() {
    status.replaceChildren();
    try {
      const body = [{ Method: 'PUT', Key: key, Document: parseObject(data.value, 'The document'), Metadata: parseObject(metadata.value, 'The metadata'), Etag: etag }];
      const saved = await request('POST', '/bulk_docs', { body });
      await renderDocument(key, `Saved: etag ${saved.json[0].Etag}.`);
    } catch (error) {
      status.append(errorBox(error));
      if (error instanceof ApiError && error.code === 'concurrency-conflict') await showCurrent(status, key);
    }
  }

  async function remove() {
    status.replaceChildren();
    try {
      await bulkCommand({ Method: 'DELETE', Key: key, Etag: etag });
      location.hash = '#documents';
    } catch (error) {
      status.append(errorBox(error));
      if (error instanceof ApiError && error.code === 'concurrency-conflict') await showCurrent(status, key);
    }
  }

  // Destructive: the button names the document, and a second click on the confirmation, which names it again, deletes.
  const confirmDelete = el('span', { hidden: true, 'data-testid': 'confirm-delete' },
    el('span', {}, `Delete document '${key}' (etag ${etag})? `),
    el('button', { className: 'danger', onclick: remove, 'data-testid': 'confirm-delete-document' }, `Yes, delete '${key}'`),
    el('button', { onclick: () => { confirmDelete.hidden = true; }, 'data-testid': 'cancel-delete' }, 'Cancel'));

  show(el('h2', { 'data-testid': 'document-key' }, key),
    el('div', { className: 'toolbar' },
      el('span', { className: 'muted' }, 'ETag '), el('b', { 'data-testid': 'document-etag' }, etag),
      el('span', { className: 'muted' }, ` · last modified ${meta['Last-Modified'] ?? ''}`),
      el('button', { className: 'primary', onclick: save, 'data-testid': 'save-document' }, 'Save'),
      el('button', { onclick: () => renderDocument(key), 'data-testid': 'reload-document' }, 'Reload'),
      el('button', { onclick: () => { confirmDelete.hidden = false; }, 'data-testid': 'delete-document', title: `Delete document '${key}'` }, 'Delete document…'),
      confirmDelete),
    status,
    patchPanel(key, etag, message => renderDocument(key, message)),
    el('div', { className: 'columns' },
      el('div', {}, el('h3', {}, 'Data'), data),
      el('div', {}, el('h3', {}, '@metadata'), metadata, el('pre', { 'data-testid': 'document-computed-metadata' }, pretty(meta)))));
}

/** After a conflict: what the server holds now; nothing was written. */
async function showCurrent(status, key) {
  const current = await load(key);
  status.append(el('div', { 'data-testid': 'conflict' },
    el('p', {}, current ? `Nothing was written. The current version (etag ${metaOf(current)['@etag']}) is:` : 'Nothing was written. The document has been deleted.'),
    current ? el('pre', { 'data-testid': 'current-version' }, pretty(current)) : null,
    el('button', { onclick: () => renderDocument(key), 'data-testid': 'load-current' }, 'Load the current version')));
}

/** A new document: key, data and metadata; it must not exist yet. */
export function renderNewDocument() {
  const key = el('input', { 'data-testid': 'new-key', placeholder: 'carts/1', size: 40 });
  const data = el('textarea', { 'data-testid': 'new-json', spellcheck: 'false' });
  data.value = '{\n  \n}';
  const metadata = el('textarea', { 'data-testid': 'new-metadata', spellcheck: 'false' });
  metadata.value = pretty({ 'Raven-Entity-Name': '' });
  const status = el('div');
  async function create() {
    status.replaceChildren();
    try {
      if (!key.value.trim()) throw new Error('A key is required.');
      const meta = parseObject(metadata.value, 'The metadata');
      if (meta['Raven-Entity-Name'] === '') delete meta['Raven-Entity-Name'];
      await request('POST', '/bulk_docs', { body: [{ Method: 'PUT', Key: key.value.trim(), Document: parseObject(data.value, 'The document'), Metadata: meta, Etag: 0 }] });
      location.hash = documentLink(key.value.trim());
    } catch (error) {
      status.append(errorBox(error));
    }
  }
  show(el('h2', {}, 'New document'),
    el('div', { className: 'toolbar' }, el('label', {}, 'Key ', key), el('button', { className: 'primary', onclick: create, 'data-testid': 'create-document' }, 'Create')),
    status,
    el('div', { className: 'columns' }, el('div', {}, el('h3', {}, 'Data'), data), el('div', {}, el('h3', {}, '@metadata'), metadata)));
}
