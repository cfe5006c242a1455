import { getJson } from './api.js';
import { el, show, table } from './ui.js';
import { documentTable, pager } from './documents.js';

const byEntityName = 'Raven/DocumentsByEntityName';
const pageSize = 25;

/** Every entity name with its count (maintained by the database, not counted here). */
export async function renderCollections() {
  const stats = await getJson('/stats');
  const names = Object.entries(stats.ByEntityName ?? {}).sort(([a], [b]) => a.localeCompare(b));
  show(el('h2', {}, 'Collections'),
    names.length === 0 ? el('p', { className: 'muted' }, 'No collections yet: documents without Raven-Entity-Name belong to none.') :
      table([['Collection', ([name]) => name], ['Documents', ([, count]) => count, 'num']], names,
        ([name]) => { location.hash = `#collection/${encodeURIComponent(name)}`; }, 'collections'),
    el('p', { className: 'muted' }, `${stats.Documents} documents in all.`));
}

/** One collection's documents, paged through the built-in index. */
export async function renderCollection(name, start = 0) {
  const quoted = `Tag:"${name.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  const page = await getJson(`/indexes/${byEntityName}?query=${encodeURIComponent(quoted)}&start=${start}&pageSize=${pageSize}`);
  show(el('h2', {}, 'Collection ', el('span', { 'data-testid': 'collection-name' }, name)),
    page.IsStale ? el('p', { className: 'muted' }, 'The index is still catching up; counts may grow.') : null,
    documentTable(page.Results),
    pager(start, page.Results.length, page.TotalResults, next => renderCollection(name, next)));
}
