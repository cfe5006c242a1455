// Every request goes to this origin (relative URLs); bodies are JSON and say so, as the server requires.
const keyStorage = 'ravenlite.apiKey';

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    /** The problem's code (docs/http-api.md), or null when the answer was not problem details. */
    this.code = body && typeof body.code === 'string' ? body.code : null;
    this.body = body;
  }
}

/** The API key the studio was given, if any. */
export const apiKey = () => sessionStorage.getItem(keyStorage);

export function setApiKey(key) {
  if (key) sessionStorage.setItem(keyStorage, key); else sessionStorage.removeItem(keyStorage);
}

/** Sends a request; resolves to { status, headers, json } or rejects with ApiError carrying the problem's detail and code. */
export async function request(method, path, { body, headers = {} } = {}) {
  const sent = { ...headers };
  const key = sessionStorage.getItem(keyStorage);
  if (key) sent['X-Api-Key'] = key;
  if (body !== undefined && !sent['Content-Type']) sent['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers: sent,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    mode: 'same-origin',
    cache: 'no-store',
  });
  const text = await response.text();
  let json = null;
  if (text) {
    try { json = JSON.parse(text); } catch { json = null; }
  }
  if (!response.ok) {
    const message = json && typeof json.detail === 'string' ? json.detail : `${response.status} ${response.statusText}`;
    if (response.status === 401) document.dispatchEvent(new CustomEvent('ravenlite:unauthorized', { detail: message }));
    throw new ApiError(response.status, message, json);
  }
  return { status: response.status, headers: response.headers, json };
}

/**
 * An index name as URL path segments: each segment percent-encoded, the slashes kept. A segment that is empty, '.' or
 * '..' is refused, never sent: the browser resolves dot segments, and the server decodes and resolves them even when
 * percent-encoded, so such a URL would name another route. Document keys never travel in URLs: documents are read
 * through POST /queries and written, patched and deleted through POST /bulk_docs, with the key in the JSON body.
 */
export function pathOf(name) {
  const segments = String(name).split('/');
  if (segments.some(s => s === '' || s === '.' || s === '..')) {
    throw new Error(`'${name}' cannot be put in a URL: a part of it is empty, '.' or '..'.`);
  }
  return segments.map(encodeURIComponent).join('/');
}

/**
 * Sends one command to POST /bulk_docs (the key goes in the body, so no key can become another route) and returns its
 * result: { Method, Key, Etag, ... }.
 */
export async function bulkCommand(command) {
  const done = await request('POST', '/bulk_docs', { body: [command] });
  return done.json[0];
}

export const getJson = async path => (await request('GET', path)).json;
