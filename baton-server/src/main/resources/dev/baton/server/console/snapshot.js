// One snapshot in full: its summary, messages, artifacts, custom state, spend and delegations.

import { get, snapshotPath } from './api.js';
import { h, json, replace } from './dom.js';
import { spend, when } from './format.js';
import { delegationsView } from './delegations.js';
import { sessionSpendView, turnSpendView } from './spend.js';
import { abortButton, badge } from './status.js';

/** How many of the newest messages show before the reader asks for all of them. */
const RECENT_MESSAGES = 100;

/** Renders snapshot `snapshotId` of `agent` into `detail`. */
export async function snapshotView(detail, agent, snapshotId) {
  const snapshot = await get(snapshotPath(agent, snapshotId));
  const delegations = h('div', { testid: 'delegations' }, h('p', { class: 'empty' }, 'Loading…'));
  replace(
    detail,
    h('h2', {}, 'Snapshot ', h('code', { testid: 'snapshot-id' }, snapshotId)),
    summary(agent, snapshot),
    section('Delegations', delegations),
    section('Spend this turn', turnSpendView(snapshot)),
    section('Spend this session, by agent and model', sessionSpendView(snapshot.sessionSpend)),
    section('Messages', messages(snapshot.messages ?? [])),
    section('Artifacts', artifacts(snapshot.artifacts ?? [])),
    section(
      'Custom state',
      snapshot.custom == null
        ? h('p', { class: 'empty' }, 'None.')
        : h('div', { testid: 'custom' }, json(snapshot.custom)),
    ),
  );
  // The delegation tree is a separate read: the snapshot shows while it loads.
  delegationsView(delegations, agent, snapshotId);
}

function section(title, ...content) {
  return h('section', { class: 'part' }, h('h3', {}, title), ...content);
}

function summary(agent, snapshot) {
  const rows = [
    [
      'Status',
      badge(agent, snapshot.snapshotId, snapshot.status, snapshot.expired),
      abortButton(agent, snapshot.snapshotId, snapshot.expired ? 'expired' : snapshot.status),
    ],
    ['Finish reason', snapshot.finishReason ?? '—'],
    ['Parent', snapshot.parentId ?? '—'],
    ['Created', when(snapshot.createdAt)],
    ['Updated', when(snapshot.updatedAt)],
    ['Heartbeat', when(snapshot.heartbeatAt)],
    [
      'Session spend, own calls',
      h(
        'span',
        {
          testid: 'snapshot-session-spend',
          title: 'this agent’s model calls over the session up to this snapshot; its sub-agents’ count in their own sessions',
        },
        spend(snapshot.spend),
      ),
    ],
  ];
  if (snapshot.error) {
    rows.splice(2, 0, [
      'Error',
      h(
        'span',
        { class: 'error', testid: 'snapshot-error' },
        `${snapshot.error.status}: ${snapshot.error.message}`,
      ),
    ]);
  }
  return h(
    'dl',
    { class: 'facts' },
    rows.map(([name, ...value]) => [h('dt', {}, name), h('dd', {}, ...value)]),
  );
}

function messages(list) {
  const container = h('ol', { class: 'messages', testid: 'messages' });
  const show = (from) => {
    replace(
      container,
      from > 0 &&
        h(
          'li',
          { class: 'more' },
          h(
            'button',
            { type: 'button', testid: 'all-messages', onclick: () => show(0) },
            `Show ${from} earlier messages`,
          ),
        ),
      list.slice(from).map(message),
    );
  };
  show(Math.max(0, list.length - RECENT_MESSAGES));
  return list.length ? container : h('p', { class: 'empty' }, 'No messages.');
}

function message(msg) {
  return h(
    'li',
    { class: `message ${msg.role ?? ''}`, testid: 'message', data: { role: msg.role ?? '' } },
    h('span', { class: 'role' }, msg.role ?? '?'),
    h('div', { class: 'parts' }, (msg.content ?? []).map(part)),
  );
}

/** A part: text as text; tool calls, tool responses and anything else collapsed. */
export function part(p) {
  if (p.text != null) {
    return h('p', { class: 'text', testid: 'text' }, p.text);
  }
  if (p.toolRequest) {
    return collapsed(
      'tool-request',
      `Tool call ${p.toolRequest.name}`,
      p.toolRequest.ref,
      p.toolRequest.input,
    );
  }
  if (p.toolResponse) {
    return collapsed(
      'tool-response',
      `Tool response ${p.toolResponse.name}`,
      p.toolResponse.ref,
      p.toolResponse.output,
    );
  }
  if (p.reasoning != null) {
    return collapsed('reasoning', 'Reasoning', null, p.reasoning);
  }
  if (p.media) {
    // Named, not loaded: the console fetches nothing a message points at.
    return h(
      'p',
      { class: 'media' },
      `Media ${p.media.contentType ?? ''} `,
      h('code', {}, shorten(p.media.url ?? '')),
    );
  }
  return collapsed('data', 'Data', null, p);
}

function collapsed(kind, title, ref, body) {
  return h(
    'details',
    { class: kind, testid: kind },
    h('summary', {}, title, ref ? h('span', { class: 'ref' }, ` (${ref})`) : null),
    typeof body === 'string' ? h('pre', {}, body) : json(body),
  );
}

function artifacts(list) {
  if (!list.length) {
    return h('p', { class: 'empty' }, 'None.');
  }
  return h(
    'ul',
    { class: 'artifacts', testid: 'artifacts' },
    list.map((artifact) =>
      h(
        'li',
        { testid: 'artifact' },
        h('strong', { class: 'name' }, artifact.name ?? '(unnamed)'),
        h('div', { class: 'parts' }, (artifact.parts ?? []).map(part)),
      ),
    ),
  );
}

function shorten(text) {
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
