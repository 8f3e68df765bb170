// The delegation tree of a turn: its sub-agent tasks, background ones and continuations included;
// a remote sub-agent is a leaf with its server's URL.

import { get, snapshotPath } from './api.js';
import { h, replace } from './dom.js';
import { duration, spend, when } from './format.js';
import { badge } from './status.js';

/** Loads and renders the tree of turn `snapshotId` of `agent` into `container`. */
export async function delegationsView(container, agent, snapshotId) {
  try {
    const root = await get(snapshotPath(agent, snapshotId, 'delegations'));
    replace(
      container,
      root.children?.length
        ? h('ul', { class: 'delegations' }, task(root))
        : h('p', { class: 'empty', testid: 'no-delegations' }, 'This turn delegated nothing.'),
    );
  } catch (failure) {
    replace(
      container,
      h('p', { class: 'error' }, `${failure.status ?? 'ERROR'}: ${failure.message}`),
    );
  }
}

/** The snapshot a task ID (`<agent>:<snapshotId>`) names, which live status events name too. */
function snapshotOf(node) {
  const prefix = `${node.agent}:`;
  return node.taskId?.startsWith(prefix) ? node.taskId.slice(prefix.length) : node.taskId;
}

function task(node) {
  return h(
    'li',
    { testid: 'delegation', data: { taskId: node.taskId, agent: node.agent } },
    h(
      'div',
      { class: 'task' },
      h('strong', { class: 'agent' }, node.agent),
      node.name && node.name !== node.agent && h('span', { class: 'name' }, node.name),
      h('code', { class: 'id' }, node.taskId),
      badge(node.agent, snapshotOf(node), node.status),
      node.background && h('span', { class: 'tag', testid: 'background' }, 'background'),
      h('span', { class: 'time', title: when(node.startedAt) }, duration(node.durationMs)),
      h(
        'span',
        {
          class: 'spend',
          testid: 'delegation-spend',
          title: 'what this turn spent, with the agents it ran in this process',
        },
        `this turn ${spend(node.spend)}`,
      ),
      node.remoteUrl &&
        h('span', { class: 'remote', testid: 'remote' }, 'remote ', h('code', {}, node.remoteUrl)),
    ),
    node.children?.length > 0 && h('ul', {}, node.children.map(task)),
  );
}
