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

export function setApiKey(key) {
  if (key) sessionStorage.setItem(keyStorage, key); else sessionStorage.removeItem(keyStorage);
}

/** Sends a request; resolves to { status, headers, json } or rejects with ApiError carrying the problem's detail and code. */
export async function request(method, path, { body, headers = {} } = {}) {
  const sent = { ...headers };
  const key = sessionStorage.getItem(keyStorage);
  if (key) sent['X-Api-Key'] = key;
  if (body !== undefined) sent['Content-Type'] = 'application/json';
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

/** A document key or index name in a path: each segment escaped, the slashes kept. */
export const pathOf = name => name.split('/').map(encodeURIComponent).join('/');

export const getJson = async path => (await request('GET', path)).json;
