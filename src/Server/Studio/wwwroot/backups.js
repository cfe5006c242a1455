import { request, getJson } from './api.js';
import { el, show, errorBox, table } from './ui.js';

const size = n => (n === null || n === undefined ? '' : `${(n / (1 << 20)).toFixed(1)} MiB`);
const time = t => (t ? new Date(t).toLocaleString() : '');

/** The server's backups (GET /admin/backups), and a button that starts one and follows it until it ends. */
export async function renderBackups() {
  const backups = await getJson('/admin/backups');
  const status = el('div', { 'data-testid': 'backup-status' });

  async function start() {
    status.replaceChildren(el('div', { className: 'notice' }, 'Backing up...'));
    try {
      const started = await request('POST', '/admin/backup');
      let current = started.json;
      while (current.State === 'Running') {
        status.replaceChildren(el('div', { className: 'notice' }, `Backing up: ${current.Step ?? 'starting'}...`));
        await new Promise(resolve => setTimeout(resolve, 500));
        current = await getJson(started.headers.get('Location'));
      }
      if (current.State === 'Failed') throw new Error(`The backup failed: ${current.Error}`);
      await renderBackups();
    } catch (error) {
      status.replaceChildren(errorBox(error, 'backup-error'));
    }
  }

  show(el('h2', {}, 'Backups'),
    el('div', { className: 'toolbar' }, el('button', { className: 'primary', onclick: start, 'data-testid': 'start-backup' }, 'Back up now')),
    status,
    table([
      ['Backup', b => b.Id],
      ['State', b => (b.State === 'Running' ? `Running (${b.Step ?? 'starting'})` : b.State)],
      ['Taken', b => time(b.StartedAt)],
      ['Documents', b => b.Documents ?? '', 'num'],
      ['Last etag', b => b.LastEtag ?? '', 'num'],
      ['Size', b => size(b.Bytes), 'num'],
      ['Folder / error', b => b.Error ?? b.Folder],
    ], backups, null, 'backups'));
}
