// The console's entry point: the header, the routes (in the URL's hash, so that the server serves
// one page) and the live updates.

import { ApiError, events, info } from './api.js';
import { h, replace } from './dom.js';
import { sessionView } from './session.js';
import { sessionsView } from './sessions.js';
import { showStatus } from './status.js';

const view = document.getElementById('view');
let refresh = null;
let rendering = 0;

/** The view a hash names: `#/sessions?agent=&status=&pageToken=` or `#/agents/A/sessions/S?snapshot=`. */
function parse(hash) {
  const [path, search] = hash.replace(/^#\/?/, '').split('?');
  const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
  return { segments, query: Object.fromEntries(new URLSearchParams(search ?? '')) };
}

async function render(about) {
  const turn = ++rendering;
  const { segments, query } = parse(location.hash);
  document.body.dataset.ready = 'false';
  refresh = null;
  try {
    let reload;
    if (segments.length === 0 || (segments.length === 1 && segments[0] === 'sessions')) {
      reload = await sessionsView(view, query, about);
    } else if (segments.length === 4 && segments[0] === 'agents' && segments[2] === 'sessions') {
      reload = await sessionView(view, segments[1], segments[3], query.snapshot);
    } else {
      throw new ApiError(404, 'NOT_FOUND', 'The console has no such page.');
    }
    if (turn === rendering) {
      refresh = reload;
    }
  } catch (failure) {
    if (turn === rendering) {
      showFailure(failure);
    }
  } finally {
    if (turn === rendering) {
      // What the browser tests wait for, and measure from the navigation's start.
      document.body.dataset.ready = 'true';
      performance.mark('console:rendered');
    }
  }
}

function showFailure(failure) {
  const notFound = failure instanceof ApiError && failure.httpStatus === 404;
  replace(
    view,
    h(
      'div',
      { class: 'failure', testid: notFound ? 'not-found' : 'failure' },
      h('h1', {}, notFound ? 'Not found' : 'Something went wrong'),
      h(
        'p',
        {},
        failure instanceof ApiError
          ? `${failure.status}: ${failure.message}`
          : String(failure.message ?? failure),
      ),
      h('p', {}, h('a', { href: '#/' }, 'Back to the sessions')),
    ),
  );
}

/**
 * Live updates: a status event updates its badges now, and the view soon after refreshes what the
 * events name (the session view, only when one names its session).
 */
function live() {
  const indicator = document.getElementById('live');
  let pending = null;
  let burstStart = 0;
  let burst = [];
  const flush = () => {
    clearTimeout(pending);
    pending = null;
    const named = burst;
    burst = [];
    refresh?.(named).catch(showFailure);
  };
  events(
    (event) => {
      showStatus(event.agent, event.snapshotId, event.status);
      // A burst of events (a fan-out of background tasks) refreshes the view once, and a steady
      // stream of them at least once a second.
      if (burst.length === 0) {
        burstStart = Date.now();
      }
      burst.push(event);
      clearTimeout(pending);
      if (Date.now() - burstStart >= 1000) {
        flush();
      } else {
        pending = setTimeout(flush, 250);
      }
    },
    (connected) => {
      indicator.textContent = connected ? 'live' : 'reconnecting';
      indicator.dataset.connected = String(connected);
    },
  );
}

async function start() {
  const principal = document.getElementById('principal');
  let about;
  try {
    about = await info();
  } catch (failure) {
    showFailure(failure);
    document.body.dataset.ready = 'true';
    return;
  }
  replace(
    principal,
    about.loopbackOnly
      ? h('span', { class: 'tag warn' }, 'loopback only')
      : ['Signed in as ', h('strong', {}, about.principal ?? 'anonymous')],
  );
  live();
  window.addEventListener('hashchange', () => render(about));
  await render(about);
}

start();
