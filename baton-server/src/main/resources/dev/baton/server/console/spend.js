// What a turn and its session spent: the turn's usage tree (the turn, and every agent invocation
// under it) with its totals by agent, and the session's totals by agent over its turns.

import { h } from './dom.js';
import { spend, tokens } from './format.js';

/**
 * The turn's usage tree and its totals by agent, or its own model calls when the agent collects
 * no tree.
 */
export function turnSpendView(snapshot) {
  if (!snapshot.usage) {
    return h(
      'p',
      { testid: 'spend' },
      snapshot.turnSpend
        ? `This agent’s own calls: ${spend(snapshot.turnSpend.total)}`
        : 'No usage reported.',
    );
  }
  return h(
    'div',
    { testid: 'spend' },
    h('ul', { class: 'usage-tree' }, usageNode(snapshot.usage)),
    byAgent(snapshot.turnSpend, 'turn-spend-by-agent'),
  );
}

/** The session's totals by agent, over the turns up to the snapshot. */
export function sessionSpendView(sessionSpend) {
  if (!sessionSpend) {
    return h('p', { class: 'empty', testid: 'session-spend-by-agent' }, 'No usage tree recorded.');
  }
  return h(
    'div',
    {},
    h(
      'p',
      { class: 'note' },
      `The ${sessionSpend.turns} ${sessionSpend.turns === 1 ? 'turn' : 'turns'} up to this snapshot, sub-agents included: `,
      h('span', { class: 'spend', testid: 'session-spend-total' }, spend(sessionSpend.total)),
    ),
    byAgent(sessionSpend, 'session-spend-by-agent'),
  );
}

function usageNode(node) {
  return h(
    'li',
    { testid: 'usage-node', data: { agent: node.agent ?? '' } },
    h(
      'div',
      { class: 'task' },
      h('strong', {}, node.agent ?? '?'),
      node.finishReason
        ? h('span', { class: 'finish' }, node.finishReason)
        : runningWhenRecorded(node),
      h(
        'span',
        { class: 'spend', title: 'this turn’s own calls' },
        `own ${spend(node.usage)}`,
      ),
      h('span', { class: 'spend' }, `total ${spend(node.total)}`),
    ),
    node.children?.length > 0 && h('ul', {}, node.children.map(usageNode)),
  );
}

/**
 * A task the tree recorded as running: the turn ended first, so its spend counts in the later turn
 * that reported it settled. Its status now comes from its store, when the console reads it.
 */
function runningWhenRecorded(node) {
  if (!node.status) {
    return h('span', { class: 'tag', testid: 'usage-status' }, 'running');
  }
  return h(
    'span',
    {
      class: 'status',
      testid: 'usage-status',
      data: { status: node.status },
      title: 'its status now; it was running when this turn ended, so its spend counts in a later turn',
    },
    node.status,
  );
}

function byAgent(spendByAgent, testid) {
  return h(
    'table',
    { class: 'grid compact', testid },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Agent', 'Calls', 'Input', 'Output', 'Total'].map((name) => h('th', {}, name)),
      ),
    ),
    h(
      'tbody',
      {},
      (spendByAgent?.byAgent ?? []).map((row) =>
        h(
          'tr',
          { data: { agent: row.agent } },
          h('td', {}, row.agent),
          h('td', { class: 'num' }, row.calls),
          h('td', { class: 'num' }, tokens(row.inputTokens)),
          h('td', { class: 'num' }, tokens(row.outputTokens)),
          h('td', { class: 'num' }, tokens(row.totalTokens)),
        ),
      ),
    ),
  );
}
