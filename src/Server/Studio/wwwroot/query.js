import { getJson, pathOf } from './api.js';
import { el, show, errorBox, pretty, table, fact } from './ui.js';
import { documentLink } from './documents.js';

/**
 * Pick an index, type a Lucene query, see the page as a table and as JSON, then the next page by continuation. A
 * map/reduce index's page is its groups: one row each, the group keys and aggregates as columns.
 * "By score" orders by relevance (sort=score, paged by start); "Highlight" names full-text fields whose fragments show
 * with the matched terms marked.
 */
export async function renderQuery() {
  const indexes = await getJson('/indexes');
  const reduceOf = name => indexes.find(i => i.Name === name)?.Definition?.Reduce ?? null;
  const index = el('select', { 'data-testid': 'query-index' }, indexes.map(i => el('option', { value: i.Name }, i.Name)));
  const query = el('input', { 'data-testid': 'query-text', size: 50, placeholder: 'Tag:Item' });
  const pageSize = el('input', { 'data-testid': 'query-page-size', type: 'number', min: 0, value: 128, className: 'narrow' });
  const sort = el('input', { 'data-testid': 'query-sort', size: 20, placeholder: '-Field,Other' });
  const byScore = el('input', { 'data-testid': 'query-by-score', type: 'checkbox' });
  const highlight = el('input', { 'data-testid': 'query-highlight', size: 12, placeholder: 'Body' });
  const facets = el('input', { 'data-testid': 'query-facets', size: 40, placeholder: 'Brand; Price@dec([* TO 100},[100 TO *])' });
  const output = el('div', { 'data-testid': 'query-output' });
  let continuation = null;
  let start = 0;

  async function run(after) {
    const parameters = new URLSearchParams();
    if (query.value.trim()) parameters.set('query', query.value.trim());
    parameters.set('pageSize', pageSize.value || '0');
    // A scored query has no continuation: its pages follow by start.
    if (byScore.checked) parameters.append('sort', 'score');
    if (sort.value.trim()) parameters.append('sort', sort.value.trim());
    if (highlight.value.trim()) parameters.set('highlight', highlight.value.trim());
    start = after === 'next' ? start + Number(pageSize.value || 0) : 0;
    if (byScore.checked && start > 0) parameters.set('start', String(start));
    else if (after && after !== 'next') parameters.set('after', after);
    // Facets are separated by ';' in the box: their ranges hold commas.
    for (const facet of facets.value.split(';').map(f => f.trim()).filter(f => f)) parameters.append('facet', facet);
    output.replaceChildren(el('p', { className: 'muted' }, 'Running…'));
    const began = performance.now();
    try {
      const result = await getJson(`/indexes/${pathOf(index.value)}?${parameters}`);
      const took = performance.now() - began;
      continuation = byScore.checked
        ? (start + result.Results.length < result.TotalResults && result.Results.length > 0 ? 'next' : null)
        : result.Continuation;
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
        ...facetTables(result.Facets ?? []),
        reduceOf(index.value) ? groupTable(result.Results, reduceOf(index.value)) : resultTable(result.Results),
        el('details', {}, el('summary', {}, 'JSON'), el('pre', { 'data-testid': 'query-json' }, pretty(result))));
    } catch (error) {
      output.replaceChildren(errorBox(error, 'query-error'));
    }
  }

  show(el('h2', {}, 'Query'),
    el('form', { className: 'toolbar', onsubmit: e => { e.preventDefault(); run(null); } },
      el('label', {}, 'Index ', index), el('label', {}, 'Query ', query), el('label', {}, 'Page size ', pageSize),
      el('label', {}, 'Sort ', sort), el('label', {}, byScore, ' By score'), el('label', {}, 'Highlight ', highlight), el('label', {}, 'Facets ', facets), el('button', { className: 'primary', type: 'submit', 'data-testid': 'run-query' }, 'Run')),
    output);
}

/** One small table per facet (in a list of one element, or none): each value (or range) and its count, then what the top left out and the matches without a value. */
function facetTables(results) {
  // None, not a null: replaceChildren would show a null as the text "null".
  if (results.length === 0) return [];
  return [el('div', { className: 'facets', 'data-testid': 'facet-results' }, results.map(facet =>
    el('div', { className: 'facet' },
      el('h3', {}, facet.Facet),
      table([['Value', v => v.Value], ['Count', v => v.Count, 'number']], facet.Values, null, 'facet-values'),
      el('p', { className: 'muted' },
        `${facet.RemainingValues} more values (${facet.RemainingCount} matches) · ${facet.Missing} matches without a value`))))];
}

/** A map/reduce index's results: one row per group, its keys then its aggregates, as the definition names them. */
function groupTable(results, reduce) {
  const text = value => (value === undefined ? '' : value === null ? 'null' : String(value));
  return table([
    ...reduce.GroupBy.map(name => [name, d => text(d[name])]),
    ...reduce.Aggregates.map(a => [a.Name, d => text(d[a.Name]), 'num']),
  ], results, null, 'query-results');
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
  const scored = results.some(d => d['@metadata']['@index-score'] !== undefined);
  const highlighted = results.some(d => d['@metadata']['@highlights'] !== undefined);
  return table([
    ['Key', d => el('a', { href: documentLink(d['@metadata']['@id']) }, d['@metadata']['@id'])],
    ['Collection', d => d['@metadata']['Raven-Entity-Name'] ?? ''],
    ...(scored ? [['Score', d => Number(d['@metadata']['@index-score']).toFixed(3)]] : []),
    ...(highlighted ? [['Highlights', d => highlights(d['@metadata']['@highlights'] ?? {})]] : []),
    ...names.slice(0, 6).map(name => [name, d => (d[name] === undefined ? '' : String(d[name]))]),
  ], results, null, 'query-results');
}

const entities = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/**
 * The server's fragments are HTML: escaped text with the matched terms between <b> and </b>. They are never put in as
 * HTML: split at the two tags (the rest holds no literal '<'), each piece unescaped and added as text, the marked ones in <mark>.
 */
function highlights(fields) {
  return el('div', { 'data-testid': 'query-highlights' }, Object.entries(fields).flatMap(([field, fragments]) => fragments.map(fragment => {
    let marked = false;
    const pieces = fragment.split(/(<b>|<\/b>)/).flatMap(piece => {
      if (piece === '<b>' || piece === '</b>') { marked = piece === '<b>'; return []; }
      const text = piece.replace(/&(amp|lt|gt|quot|#39);/g, entity => entities[entity]);
      return [marked ? el('mark', {}, text) : text];
    });
    return el('div', { className: 'fragment' }, el('span', { className: 'muted' }, `${field}: `), ...pieces);
  })));
}
