// The sessions view: every session the reader may see, newest first, with a filter by agent and
// status and a page at a time.

import { get } from './api.js';
import { h, link, replace, route } from './dom.js';
import { ago, spend, when } from './format.js';
import { abortButton, badge } from './status.js';

// The stored statuses the list filters by; an expired task is stored pending.
const STATUSES = ['pending', 'completed', 'failed', 'aborted'];
const PAGE_SIZE = 50;

/**
 * Renders the list into `view` for the route's query ({agent, status, pageToken}); answers a
 * refresh function that reloads the same page in place.
 */
export async function sessionsView(view, query, info) {
  const table = h('tbody', { testid: 'sessions' });
  const pager = h('nav', { class: 'pager' });
  replace(
    view,
    h('h1', {}, 'Sessions'),
    filters(query, info.agents ?? []),
    h(
      'table',
      { class: 'grid', testid: 'sessions-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Agent', 'Session', 'Status', 'Finish', 'Turns', 'Last activity', 'Spend', ''].map(
            (name) => h('th', {}, name),
          ),
        ),
      ),
      table,
    ),
    pager,
  );
  let shown = null;
  const load = async () => {
    const page = await get('sessions', {
      agent: query.agent,
      status: query.status,
      limit: PAGE_SIZE,
      pageToken: query.pageToken,
    });
    // A live reload that finds the page unchanged leaves the rows (and the reader's place) alone.
    const json = JSON.stringify(page);
    if (json === shown) {
      return;
    }
    shown = json;
    replace(table, page.sessions.length ? page.sessions.map(row) : empty());
    replace(pager, pagerLinks(query, page.nextPageToken));
  };
  await load();
  return load;
}

function filters(query, agents) {
  const agent = select('agent', 'All agents', agents, query.agent);
  const status = select('status', 'Any status', STATUSES, query.status);
  const apply = () => {
    location.hash = route(['sessions'], { agent: agent.value, status: status.value });
  };
  agent.addEventListener('change', apply);
  status.addEventListener('change', apply);
  return h(
    'form',
    { class: 'filters', testid: 'filters', onsubmit: (e) => e.preventDefault() },
    h('label', {}, 'Agent ', agent),
    h('label', {}, 'Status ', status),
  );
}

function select(name, any, values, chosen) {
  return h(
    'select',
    { name, testid: `filter-${name}` },
    h('option', { value: '' }, any),
    values.map((value) => h('option', { value, selected: value === chosen }, value)),
  );
}

function row(session) {
  const { agent, sessionId, latestSnapshotId: snapshotId } = session;
  return h(
    'tr',
    { testid: 'session-row', data: { agent, sessionId } },
    h('td', { class: 'agent' }, agent),
    h('td', { class: 'id' }, link(['agents', agent, 'sessions', sessionId], {}, sessionId)),
    h('td', {}, badge(agent, snapshotId, session.status)),
    h(
      'td',
      { class: 'finish' },
      session.finishReason ?? '—',
      session.error &&
        h(
          'div',
          { class: 'error', testid: 'session-error', title: session.error.message },
          `${session.error.status}: ${session.error.message}`,
        ),
    ),
    h('td', { class: 'num', testid: 'turns' }, session.turns),
    h('td', { title: when(session.updatedAt) }, ago(session.updatedAt)),
    h('td', { class: 'spend' }, spend(session.spend)),
    h('td', {}, abortButton(agent, snapshotId, session.status)),
  );
}

function empty() {
  return h(
    'tr',
    {},
    h('td', { colspan: 8, class: 'empty', testid: 'no-sessions' }, 'No sessions.'),
  );
}

function pagerLinks(query, nextPageToken) {
  return [
    query.pageToken && link(['sessions'], { agent: query.agent, status: query.status }, '« Newest'),
    nextPageToken &&
      h(
        'a',
        {
          href: route(['sessions'], {
            agent: query.agent,
            status: query.status,
            pageToken: nextPageToken,
          }),
          testid: 'next-page',
        },
        'Older »',
      ),
  ];
}
