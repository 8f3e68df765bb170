// The console's JSON API, next to this page under the console's path.

const base = new URL('../api/', import.meta.url);

/** An error answer: its HTTP status and Genkit's status and message. */
export class ApiError extends Error {
  constructor(httpStatus, status, message) {
    super(message);
    this.httpStatus = httpStatus;
    this.status = status;
  }
}

let csrfToken = '';

/** The console's principal, agents and the token abort requests send. */
export async function info() {
  const answer = await get('info');
  csrfToken = answer.csrfToken ?? '';
  return answer;
}

/** GETs a path under the API, with query parameters (empty ones left out). */
export async function get(path, query = {}) {
  const url = new URL(path, base);
  for (const [key, value] of Object.entries(query)) {
    if (value != null && value !== '') {
      url.searchParams.set(key, value);
    }
  }
  return answerOf(await fetch(url, { headers: { Accept: 'application/json' } }));
}

/** The path of an agent's snapshot: the API's names are encoded as path segments. */
export function snapshotPath(agent, snapshotId, ...rest) {
  return ['agents', agent, 'snapshots', snapshotId, ...rest].map(encodeURIComponent).join('/');
}

/** Asks the server to abort a pending task; answers the snapshot's new status. */
export async function abort(agent, snapshotId) {
  const post = () =>
    fetch(new URL(snapshotPath(agent, snapshotId, 'abort'), base), {
      method: 'POST',
      headers: { Accept: 'application/json', 'X-Baton-Console-Token': csrfToken },
    }).then(answerOf);
  try {
    return await post();
  } catch (error) {
    // The token may be another server's (a replica, or this one before a restart): read it again.
    if (!(error instanceof ApiError) || error.status !== 'PERMISSION_DENIED') {
      throw error;
    }
    await info();
    return post();
  }
}

/** The server's status events: calls `onStatus` with each, and `onState` with the connection's. */
export function events(onStatus, onState) {
  const source = new EventSource(new URL('events', base));
  source.addEventListener('open', () => onState(true));
  source.addEventListener('error', () => onState(false));
  source.addEventListener('status', (event) => onStatus(JSON.parse(event.data)));
  return source;
}

async function answerOf(response) {
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = body?.error ?? body ?? {};
    throw new ApiError(
      response.status,
      error.status ?? 'UNKNOWN',
      error.message ?? `The server answered ${response.status}.`,
    );
  }
  return body;
}
