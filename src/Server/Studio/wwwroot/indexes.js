import { request, getJson, pathOf } from './api.js';
import { el, show, errorBox, pretty, table } from './ui.js';

const template = { EntityName: 'Item', Fields: [{ Name: 'ProductId', Path: 'itemList[].productId' }] };

/** Every index with its statistics; click one for its definition. */
export async function renderIndexes() {
  const indexes = await getJson('/indexes');
  show(el('h2', {}, 'Indexes'),
    el('div', { className: 'toolbar' }, el('a', { href: '#new-index' }, el('button', { className: 'primary', 'data-testid': 'new-index' }, 'New index'))),
    table([
      ['Name', i => i.Name],
      ['Built-in', i => (i.IsBuiltIn ? 'yes' : '')],
      ['Reduce', i => reduceSummary(i.Definition?.Reduce)],
      ['Documents', i => i.DocumentCount, 'num'],
      ['Last indexed etag', i => i.LastIndexedEtag, 'num'],
      ['Stale', i => (i.IsStale ? 'stale' : 'current')],
      ['Errors', i => i.ErrorCount, 'num'],
      ['Last error', i => i.LastError ?? ''],
    ], indexes, i => { location.hash = `#index/${encodeURIComponent(i.Name)}`; }, 'indexes'));
}

/** A map/reduce index's groups and aggregates in a few words: "by Customer: Count, Total = Sum(Price)". */
function reduceSummary(reduce) {
  if (!reduce) return '';
  const aggregates = reduce.Aggregates.map(a => (a.Field ? `${a.Name} = ${a.Function}(${a.Field})` : `${a.Name} = ${a.Function}`));
  return `by ${reduce.GroupBy.join(', ')}: ${aggregates.join(', ')}`;
}

/** A definition to view, edit and save (PUT) or delete; the server's validation errors are shown where it was typed. */
export async function renderIndex(name) {
  const isNew = name === null;
  const definition = isNew ? template : await getJson(`/indexes/${pathOf(name)}?definition=yes`);
  const builtIn = !isNew && name.toLowerCase().startsWith('raven/');
  const nameInput = el('input', { 'data-testid': 'index-name', size: 40, value: isNew ? '' : name, disabled: !isNew });
  const text = el('textarea', { 'data-testid': 'index-definition', spellcheck: 'false', readonly: builtIn });
  text.value = pretty(definition);
  const status = el('div', { 'data-testid': 'index-status' });

  async function save() {
    status.replaceChildren();
    const target = nameInput.value.trim();
    try {
      if (!target) throw new Error('An index name is required.');
      let body;
      try { body = JSON.parse(text.value); } catch (e) { throw new Error(`The definition is not valid JSON: ${e.message}`); }
      const saved = await request('PUT', `/indexes/${pathOf(target)}`, { body });
      location.hash = `#index/${encodeURIComponent(saved.json.Index)}`;
      if (!isNew) status.append(el('div', { className: 'notice', 'data-testid': 'notice' }, saved.json.Changed ? 'Saved; the index is rebuilding.' : 'Saved; the definition was unchanged.'));
    } catch (error) {
      status.append(errorBox(error, 'index-error'));
    }
  }

  async function remove() {
    status.replaceChildren();
    try {
      await request('DELETE', `/indexes/${pathOf(name)}`);
      location.hash = '#indexes';
    } catch (error) {
      status.append(errorBox(error, 'index-error'));
    }
  }

  // Destructive: the confirmation names the index, and a second click deletes it.
  const confirmDelete = el('span', { hidden: true, 'data-testid': 'confirm-delete' },
    el('span', {}, `Delete index '${name}' and its Lucene files? `),
    el('button', { className: 'danger', onclick: remove, 'data-testid': 'confirm-delete-index' }, `Yes, delete index '${name}'`),
    el('button', { onclick: () => { confirmDelete.hidden = true; }, 'data-testid': 'cancel-delete' }, 'Cancel'));

  show(el('h2', {}, isNew ? 'New index' : `Index ${name}`),
    el('div', { className: 'toolbar' },
      el('label', {}, 'Name ', nameInput),
      builtIn ? el('span', { className: 'muted' }, 'Built-in indexes cannot be changed.') : [
        el('button', { className: 'primary', onclick: save, 'data-testid': 'save-index' }, 'Save'),
        isNew ? null : el('button', { onclick: () => { confirmDelete.hidden = false; }, 'data-testid': 'delete-index', title: `Delete index '${name}'` }, 'Delete index…'),
        isNew ? null : confirmDelete]),
    status, text);
}
