// The session view: the snapshot chain as a tree, and the chosen snapshot in full.

import { get } from './api.js';
import { h, replace, route } from './dom.js';
import { ago, spend, when } from './format.js';
import { snapshotView } from './snapshot.js';
import { abortButton, badge } from './status.js';

/** How many rows of a long chain show (from the open one on) before the reader asks for all. */
const RECENT_SNAPSHOTS = 100;

/**
 * Renders session `sessionId` of `agent`, with snapshot `chosen` open (the newest when none);
 * answers a refresh function for live events. A refresh for events that name none of the
 * session's rows reads nothing; otherwise it reads the rows (no messages) again and redraws the
 * tree when they changed, and reads the open snapshot's conversation again only when an event
 * names it or the session's newest row, open by default, is another.
 */
export async function sessionView(view, agent, sessionId, chosen) {
  const chain = h('ol', { class: 'chain', testid: 'chain' });
  const heading = h('div', { class: 'summary' });
  const detail = h('section', { class: 'detail', testid: 'snapshot' });
  replace(
    view,
    h('p', { class: 'crumbs' }, h('a', { href: '#/' }, 'Sessions'), ' / ', agent),
    h('h1', {}, 'Session ', h('code', { testid: 'session-id' }, sessionId)),
    heading,
    h(
      'div',
      { class: 'split' },
      h('section', { class: 'tree' }, h('h2', {}, 'Snapshots'), chain),
      detail,
    ),
  );
  let shown = null;
  let openShown = null;
  const load = async (events) => {
    if (events && !events.some((e) => e.agent === agent && e.sessionId === sessionId)) {
      return;
    }
    const session = await get(
      ['agents', agent, 'sessions', sessionId].map(encodeURIComponent).join('/'),
    );
    // A live reload that finds the chain unchanged keeps what the reader opened.
    const json = JSON.stringify(session);
    if (json === shown) {
      return;
    }
    shown = json;
    const snapshots = session.snapshots;
    // The chain comes oldest first, so its last row is the session's latest.
    const open = chosen ?? snapshots.at(-1)?.snapshotId;
    const reopen = open !== openShown || (events ?? []).some((e) => e.snapshotId === open);
    openShown = open;
    // The snapshot loads while the chain renders.
    const opened = open && reopen ? snapshotView(detail, agent, open) : null;
    replace(
      heading,
      h(
        'span',
        { testid: 'turns' },
        `${snapshots.length} ${snapshots.length === 1 ? 'turn' : 'turns'}`,
      ),
      // A snapshot's spend is its session's own calls up to it, so the latest's is the session's.
      h(
        'span',
        { testid: 'session-spend' },
        `Session spend, own calls: ${spend(snapshots.at(-1)?.spend)}`,
      ),
    );
    const rows = treeRows(snapshots);
    const openAt = rows.findIndex((row) => row.snapshot.snapshotId === open);
    const recent = Math.max(0, rows.length - RECENT_SNAPSHOTS);
    showChain(chain, rows, openAt < 0 ? recent : Math.min(openAt, recent), (row) =>
      node(agent, sessionId, row.snapshot, row.depth, row.branch, open),
    );
    if (opened) {
      await opened;
    } else if (!open) {
      replace(detail, h('p', { class: 'empty' }, 'No snapshots.'));
    }
  };
  await load();
  return load;
}

/**
 * The chain in reading order, oldest first: a snapshot's first continuation follows it at the
 * same depth, after every other continuation (a branch), which is indented under it. Iterative, so a
 * session of thousands of turns neither nests thousands of elements nor overflows the stack.
 */
export function treeRows(snapshots) {
  const ids = new Set(snapshots.map((s) => s.snapshotId));
  const children = new Map();
  const roots = [];
  // A stable sort: rows created in the same millisecond keep the server's order.
  for (const snapshot of [...snapshots].sort(
    (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
  )) {
    if (snapshot.parentId && ids.has(snapshot.parentId)) {
      if (!children.has(snapshot.parentId)) {
        children.set(snapshot.parentId, []);
      }
      children.get(snapshot.parentId).push(snapshot);
    } else {
      roots.push(snapshot);
    }
  }
  const rows = [];
  const stack = roots.reverse().map((snapshot) => ({ snapshot, depth: 0, branch: false }));
  while (stack.length) {
    const row = stack.pop();
    rows.push(row);
    const next = children.get(row.snapshot.snapshotId) ?? [];
    // The main line (the first continuation) is pushed first, so it comes out last: the
    // branches show right under the snapshot they fork from, oldest first, and then the line
    // goes on.
    if (next.length) {
      stack.push({ snapshot: next[0], depth: row.depth, branch: false });
    }
    for (let i = next.length - 1; i > 0; i--) {
      stack.push({ snapshot: next[i], depth: row.depth + 1, branch: true });
    }
  }
  return rows;
}

function showChain(chain, rows, from, render) {
  replace(
    chain,
    from > 0 &&
      h(
        'li',
        { class: 'more' },
        h(
          'button',
          {
            type: 'button',
            testid: 'all-snapshots',
            onclick: () => showChain(chain, rows, 0, render),
          },
          `Show ${from} earlier snapshots`,
        ),
      ),
    rows.slice(from).map(render),
  );
}

function node(agent, sessionId, snapshot, depth, branch, open) {
  const { snapshotId } = snapshot;
  const item = h(
    'li',
    {
      class: `node${snapshotId === open ? ' open' : ''}${depth > 0 ? ' branch' : ''}${branch ? ' fork' : ''}`,
      testid: 'snapshot-node',
      data: { snapshotId },
    },
    h(
      'a',
      {
        href: route(['agents', agent, 'sessions', sessionId], { snapshot: snapshotId }),
        class: 'id',
      },
      snapshotId,
    ),
    badge(agent, snapshotId, snapshot.status, snapshot.expired),
    h('span', { class: 'finish' }, snapshot.finishReason ?? ''),
    h('span', { class: 'time', title: when(snapshot.updatedAt) }, ago(snapshot.updatedAt)),
    snapshot.error &&
      h('span', { class: 'error' }, `${snapshot.error.status}: ${snapshot.error.message}`),
    abortButton(agent, snapshotId, snapshot.expired ? 'expired' : snapshot.status),
  );
  // Through the CSSOM: the console's content security policy refuses inline style attributes.
  item.style.setProperty('--depth', depth);
  return item;
}
