import { getJson, pathOf } from './api.js';
import { el, show, errorBox, pretty, table, fact } from './ui.js';
import { documentLink } from './documents.js';

/** Pick an index, type a Lucene query, see the page as a table and as JSON, then the next page by continuation. */
export async function renderQuery() {
  const indexes = await getJson('/indexes');
  const index = el('select', { 'data-testid': 'query-index' }, indexes.map(i => el('option', { value: i.Name }, i.Name)));
  const query = el('input', { 'data-testid': 'query-text', size: 50, placeholder: 'Tag:Item' });
  const pageSize = el('input', { 'data-testid': 'query-page-size', type: 'number', min: 0, value: 128, className: 'narrow' });
  const sort = el('input', { 'data-testid': 'query-sort', size: 20, placeholder: '-Field,Other' });
  const facets = el('input', { 'data-testid': 'query-facets', size: 40, placeholder: 'Brand; Price@dec([* TO 100},[100 TO *])' });
  const output = el('div', { 'data-testid': 'query-output' });
  let continuation = null;

  async function run(after) {
    const parameters = new URLSearchParams();
    if (query.value.trim()) parameters.set('query', query.value.trim());
    parameters.set('pageSize', pageSize.value || '0');
    if (sort.value.trim()) parameters.set('sort', sort.value.trim());
    // Facets are separated by ';' in the box: their ranges hold commas.
    for (const facet of facets.value.split(';').map(f => f.trim()).filter(f => f)) parameters.append('facet', facet);
    if (after) parameters.set('after', after);
    output.replaceChildren(el('p', { className: 'muted' }, 'Running…'));
    const began = performance.now();
    try {
      const result = await getJson(`/indexes/${pathOf(index.value)}?${parameters}`);
      const took = performance.now() - began;
      continuation = result.Continuation;
      output.replaceChildren(
        el('div', { className: 'facts' },
          fact('TotalResults', result.TotalResults, 'total-results'),
          fact('Returned', result.Results.length, 'returned'),
          fact('SkippedResults', result.SkippedResults, 'skipped-results'),
          fact('IsStale', String(result.IsStale), 'is-stale'),
          fact('PageSize', result.RequestedPageSize !== undefined ? `${result.PageSize} (asked ${result.RequestedPageSize})` : result.PageSize, 'page-size'),
          fact('Time', `${took.toFixed(1)} ms`, 'time-taken')),
        el('div', { className: 'toolbar' },
          el('button', { disabled: !continuation, onclick: () => run(continuation), 'data-testid': 'query-next' }, 'Next page →')),
        facetTables(result.Facets ?? []),
        resultTable(result.Results),
        el('details', {}, el('summary', {}, 'JSON'), el('pre', { 'data-testid': 'query-json' }, pretty(result))));
    } catch (error) {
      output.replaceChildren(errorBox(error, 'query-error'));
    }
  }

  show(el('h2', {}, 'Query'),
    el('form', { className: 'toolbar', onsubmit: e => { e.preventDefault(); run(null); } },
      el('label', {}, 'Index ', index), el('label', {}, 'Query ', query), el('label', {}, 'Page size ', pageSize),
      el('label', {}, 'Sort ', sort), el('label', {}, 'Facets ', facets), el('button', { className: 'primary', type: 'submit', 'data-testid': 'run-query' }, 'Run')),
    output);
}

/** One small table per facet: each value (or range) and its count, then what the top left out and the matches without a value. */
function facetTables(results) {
  if (results.length === 0) return null;
  return el('div', { className: 'facets', 'data-testid': 'facet-results' }, results.map(facet =>
    el('div', { className: 'facet' },
      el('h3', {}, facet.Facet),
      table([['Value', v => v.Value], ['Count', v => v.Count, 'number']], facet.Values, null, 'facet-values'),
      el('p', { className: 'muted' },
        `${facet.RemainingValues} more values (${facet.RemainingCount} matches) · ${facet.Missing} matches without a value`))));
}

/** Key, collection and the first top-level scalar members of the page as columns. */
function resultTable(results) {
  const names = [];
  for (const doc of results) {
    for (const [name, value] of Object.entries(doc)) {
      if (name !== '@metadata' && (value === null || typeof value !== 'object') && !names.includes(name)) names.push(name);
    }
    if (names.length >= 6) break;
  }
  return table([
    ['Key', d => el('a', { href: documentLink(d['@metadata']['@id']) }, d['@metadata']['@id'])],
    ['Collection', d => d['@metadata']['Raven-Entity-Name'] ?? ''],
    ...names.slice(0, 6).map(name => [name, d => (d[name] === undefined ? '' : String(d[name]))]),
  ], results, null, 'query-results');
}
