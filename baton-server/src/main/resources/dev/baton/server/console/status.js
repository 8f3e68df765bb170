// Status badges and the abort action. A badge names its agent and snapshot, so that a live event
// updates every badge of that snapshot on the page, and every abort button with it.

import { abort } from './api.js';
import { h } from './dom.js';

/** The statuses a task can still be aborted in. */
const ABORTABLE = new Set(['pending']);

/** A snapshot's status as a badge; an expired task reads "expired" whatever its stored status. */
export function badge(agent, snapshotId, status, expired = false) {
  const element = h('span', {
    class: 'status',
    testid: 'status',
    data: { agent, snapshotId },
  });
  setStatus(element, expired ? 'expired' : status);
  return element;
}

/** A button that aborts a pending task once confirmed; hidden unless the task is pending. */
export function abortButton(agent, snapshotId, status) {
  const button = h(
    'button',
    {
      class: 'abort',
      type: 'button',
      testid: 'abort',
      data: { agent, snapshotId },
      onclick: () => confirmAbort(agent, snapshotId),
    },
    'Abort',
  );
  button.hidden = !ABORTABLE.has(status);
  return button;
}

/** Shows a new status on every badge and abort button of the snapshot. */
export function showStatus(agent, snapshotId, status) {
  for (const element of document.querySelectorAll('[data-snapshot-id]')) {
    if (element.dataset.agent !== agent || element.dataset.snapshotId !== snapshotId) {
      continue;
    }
    if (element.dataset.testid === 'status') {
      setStatus(element, status);
    } else if (element.dataset.testid === 'abort') {
      element.hidden = !ABORTABLE.has(status);
    }
  }
}

function setStatus(element, status) {
  element.textContent = status ?? 'unknown';
  element.dataset.status = status ?? 'unknown';
}

function confirmAbort(agent, snapshotId) {
  const error = h('p', { class: 'error', testid: 'abort-error' });
  const dialog = h(
    'dialog',
    { class: 'confirm', testid: 'abort-dialog' },
    h('h2', {}, 'Abort this task?'),
    h(
      'p',
      {},
      'The task ',
      h('code', {}, snapshotId),
      ' of ',
      h('code', {}, agent),
      ' stops at its next step and settles as aborted. This cannot be undone.',
    ),
    error,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', testid: 'abort-cancel', onclick: () => dialog.close() },
        'Keep running',
      ),
      h(
        'button',
        {
          type: 'button',
          class: 'danger',
          testid: 'abort-confirm',
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              const answer = await abort(agent, snapshotId);
              showStatus(agent, snapshotId, answer.status);
              dialog.close();
            } catch (failure) {
              error.textContent = `${failure.status ?? 'ERROR'}: ${failure.message}`;
              event.target.disabled = false;
            }
          },
        },
        'Abort task',
      ),
    ),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
