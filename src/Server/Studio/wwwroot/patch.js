import { bulkCommand, ApiError } from './api.js';
import { el, errorBox } from './ui.js';

/** A JSON Patch (RFC 6902, plus "increment") for one document, sent with If-Match: the version shown. */
export function patchPanel(key, etag, onPatched) {
  const operations = el('textarea', { 'data-testid': 'patch-json', spellcheck: 'false', rows: 4 });
  operations.value = '[\n  { "op": "replace", "path": "/field", "value": 1 }\n]';
  const status = el('div', { 'data-testid': 'patch-status' });

  async function apply() {
    status.replaceChildren();
    try {
      let body;
      try { body = JSON.parse(operations.value); } catch (e) { throw new Error(`The patch is not valid JSON: ${e.message}`); }
      if (!Array.isArray(body)) throw new Error('A JSON Patch is an array of operations.');
      // Through /bulk_docs, so the key travels in the body, never in a URL.
      const patched = await bulkCommand({ Method: 'PATCH', Key: key, Patch: body, Etag: etag });
      if (!patched.Patched) throw new Error(`Document '${key}' no longer exists; nothing was patched.`);
      await onPatched(`Patched: etag ${patched.Etag}.`);
    } catch (error) {
      status.append(errorBox(error, error instanceof ApiError && error.status === 409 ? 'patch-conflict' : 'error'));
    }
  }

  return el('details', { 'data-testid': 'patch-panel' },
    el('summary', {}, 'Patch (JSON Patch: add, remove, replace, move, copy, test, increment)'),
    operations,
    el('button', { onclick: apply, 'data-testid': 'apply-patch' }, 'Apply patch'),
    status);
}
