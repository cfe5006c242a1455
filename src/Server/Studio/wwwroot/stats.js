import { getJson } from './api.js';
import { el, show, table, fact } from './ui.js';

const bytes = n => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

/** Document counts and the document cache's counters, as GET /stats reports them. */
export async function renderStats() {
  const stats = await getJson('/stats');
  const cache = stats.Cache ?? {};
  show(el('h2', {}, 'Stats'),
    el('div', { className: 'facts' },
      fact('Documents', stats.Documents, 'stat-documents'),
      fact('Last etag', stats.LastEtag, 'stat-last-etag'),
      fact('Stale indexes', (stats.StaleIndexes ?? []).length, 'stat-stale')),
    el('h3', {}, 'Document cache'),
    el('div', { className: 'facts' },
      fact('Enabled', String(cache.Enabled), 'cache-enabled'),
      fact('Size', `${bytes(cache.Bytes ?? 0)} of ${bytes(cache.LimitBytes ?? 0)}`, 'cache-size'),
      fact('Entries', cache.Entries, 'cache-entries'),
      fact('Hit ratio', cache.HitRatio === undefined ? '' : `${(cache.HitRatio * 100).toFixed(1)} %`, 'cache-hit-ratio'),
      fact('Hits / misses', `${cache.Hits} / ${cache.Misses}`, 'cache-hits'),
      fact('Evictions', cache.Evictions, 'cache-evictions')),
    el('h3', {}, 'By collection'),
    table([['Collection', ([n]) => n], ['Documents', ([, c]) => c, 'num']], Object.entries(stats.ByEntityName ?? {}), null, 'stats-by-entity'));
}
