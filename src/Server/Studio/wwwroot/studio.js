import { setApiKey, getJson } from './api.js';
import { errorBox, show, el, loading } from './ui.js';
import { renderCollections, renderCollection } from './collections.js';
import { renderDocuments, renderDocument, renderNewDocument } from './documents.js';
import { renderQuery } from './query.js';
import { renderIndexes, renderIndex } from './indexes.js';
import { renderStats } from './stats.js';
import { renderBackups } from './backups.js';
import { renderChanges, stopChanges } from './changes.js';

// Routes: #collections, #collection/<name>, #documents, #doc/<key>, #new, #query, #indexes, #index/<name>, #new-index, #stats, #backups, #changes.
const routes = {
  collections: () => renderCollections(),
  collection: name => renderCollection(name),
  documents: () => renderDocuments(),
  doc: key => renderDocument(key),
  new: () => renderNewDocument(),
  query: () => renderQuery(),
  indexes: () => renderIndexes(),
  index: name => renderIndex(name),
  'new-index': () => renderIndex(null),
  stats: () => renderStats(),
  backups: () => renderBackups(),
  changes: () => renderChanges(),
};

async function route() {
  const hash = location.hash.slice(1) || 'collections';
  const slash = hash.indexOf('/');
  const name = slash < 0 ? hash : hash.slice(0, slash);
  const argument = slash < 0 ? undefined : decodeURIComponent(hash.slice(slash + 1));
  const render = routes[name] ?? routes.collections;
  const section = name === 'collection' ? 'collections' : name === 'doc' || name === 'new' ? 'documents' : name === 'index' || name === 'new-index' ? 'indexes' : name;
  for (const link of document.querySelectorAll('nav a')) link.classList.toggle('active', link.dataset.view === section);
  document.body.dataset.ready = 'false';
  stopChanges();
  loading();
  try {
    await render(argument);
  } catch (error) {
    show(el('h2', {}, 'Studio'), errorBox(error));
  }
  document.body.dataset.ready = 'true';
}

const scopeNames = { read: 'read', write: 'read and write documents', admin: 'do everything (indexes, backups too)' };

/** Shows in the header what the studio's key may do (GET /keys/current); nothing until a key is accepted. */
async function showScope() {
  const badge = document.getElementById('key-scope');
  try {
    const key = await getJson('/keys/current');
    badge.textContent = key.KeysRequired
      ? `${key.Scope} key: may ${scopeNames[key.Scope] ?? key.Scopes.join(', ')}`
      : 'no key needed (loopback): may do everything';
    badge.dataset.scope = key.Scope;
  } catch {
    badge.textContent = '';
    delete badge.dataset.scope;
  }
}

const keyForm = document.getElementById('api-key-form');
document.addEventListener('ravenlite:unauthorized', () => { keyForm.hidden = false; document.getElementById('api-key').focus(); });
keyForm.addEventListener('submit', event => {
  event.preventDefault();
  setApiKey(document.getElementById('api-key').value.trim());
  keyForm.hidden = true;
  route();
  showScope();
});

window.addEventListener('hashchange', route);
route();
showScope();
