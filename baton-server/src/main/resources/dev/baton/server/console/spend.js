// What a turn and its session spent: the turn's usage tree (the turn, and every agent invocation
// under it) with its totals by agent and by agent and model, and the session's the same ways over
// its turns.

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
    byModel(snapshot.turnSpend, 'turn-spend-by-model'),
  );
}

/** The session's totals by agent and by agent and model, over the turns up to the snapshot. */
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
    byModel(sessionSpend, 'session-spend-by-model'),
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

function byAgent(spend, testid) {
  return spendTable(testid, 'By agent', ['Agent', 'Calls'], spend?.byAgent, (row) => [
    { agent: row.agent },
    h('td', {}, row.agent),
    h('td', { class: 'num' }, row.calls),
  ]);
}

/** The same spend by agent and model; a tree recorded before it named models has none to show. */
function byModel(spend, testid) {
  return spendTable(testid, 'By agent and model', ['Agent', 'Model'], spend?.byModel, (row) => [
    { agent: row.agent, model: row.model ?? '' },
    h('td', {}, row.agent),
    row.model ? h('td', {}, row.model) : h('td', { class: 'empty' }, 'not recorded'),
  ]);
}

/** A table of spend rows: each row's leading cells (after its data attributes), then its tokens. */
function spendTable(testid, caption, leading, rows, cells) {
  return h(
    'table',
    { class: 'grid compact', testid },
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        [...leading, 'Input', 'Output', 'Total'].map((name) => h('th', {}, name)),
      ),
    ),
    h(
      'tbody',
      {},
      (rows ?? []).map((row) => {
        const [data, ...first] = cells(row);
        return h(
          'tr',
          { data },
          ...first,
          h('td', { class: 'num' }, tokens(row.inputTokens)),
          h('td', { class: 'num' }, tokens(row.outputTokens)),
          h('td', { class: 'num' }, tokens(row.totalTokens)),
        );
      }),
    ),
  );
}
