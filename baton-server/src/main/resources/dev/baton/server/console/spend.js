// A turn's spend: its usage tree (the turn, and every agent invocation under it), and the same
// totals by agent and model.

import { h } from './dom.js';
import { spend, sum, tokens, totalOf } from './format.js';

/** The usage tree of a turn, or its own spend when the agent collects no tree. */
export function spendView(tree, own) {
  if (!tree) {
    return h('p', { testid: 'spend' }, own ? spend(own) : 'No usage reported.');
  }
  return h(
    'div',
    { testid: 'spend' },
    h('ul', { class: 'usage-tree' }, usageNode(tree)),
    byAgentAndModel(tree),
  );
}

function usageNode(node) {
  return h(
    'li',
    {},
    h(
      'div',
      { class: 'task' },
      h('strong', {}, node.agent ?? '?'),
      node.finishReason
        ? h('span', { class: 'finish' }, node.finishReason)
        : h('span', { class: 'tag' }, 'running'),
      h(
        'span',
        { class: 'spend', title: 'this turn’s own calls' },
        `own ${spend(node.usage ?? sum(node.calls ?? []))}`,
      ),
      h('span', { class: 'spend' }, `total ${spend(node.total)}`),
    ),
    node.children?.length > 0 && h('ul', {}, node.children.map(usageNode)),
  );
}

function byAgentAndModel(tree) {
  const totals = new Map();
  const stack = [tree];
  while (stack.length) {
    const node = stack.pop();
    for (const call of node.calls ?? []) {
      const model = call.model ?? node.model ?? '—';
      const key = JSON.stringify([node.agent, model]);
      const row = totals.get(key) ?? { agent: node.agent, model, calls: 0, usages: [] };
      row.calls += 1;
      row.usages.push(call);
      totals.set(key, row);
    }
    stack.push(...(node.children ?? []));
  }
  const rows = [...totals.values()].sort(
    (a, b) => (totalOf(sum(b.usages)) ?? 0) - (totalOf(sum(a.usages)) ?? 0),
  );
  // Usage names its model only where the model reported it; without any, the column is noise.
  const models = rows.some((row) => row.model !== '—');
  const headings = ['Agent', models && 'Model', 'Calls', 'Input', 'Output', 'Total'].filter(
    Boolean,
  );
  return h(
    'table',
    { class: 'grid compact', testid: 'spend-by-agent' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headings.map((name) => h('th', {}, name)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) => {
        const total = sum(row.usages);
        return h(
          'tr',
          {},
          h('td', {}, row.agent ?? '?'),
          models && h('td', {}, row.model),
          h('td', { class: 'num' }, row.calls),
          h('td', { class: 'num' }, tokens(total.inputTokens)),
          h('td', { class: 'num' }, tokens(total.outputTokens)),
          h('td', { class: 'num' }, tokens(total.totalTokens)),
        );
      }),
    ),
  );
}
