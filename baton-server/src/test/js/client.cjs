// Drives agents served by baton-server with Genkit JS's own remoteAgent client, for the interop
// test. Usage: node client.cjs <base URL>. It prints one JSON report of what the client saw; the
// Java test checks it. The Baton side serves "chat" (server-managed, abortable) at /api/chat, a
// route of its choosing, and "stateless" (client-managed) at its default route, /agents/stateless,
// on a model that echoes the user's text, fails on "[fail]" and waits until aborted on "[block]".
'use strict';

const { remoteAgent } = require('genkit/beta/client');

const base = process.argv[2];
const report = {};

function describeError(e) {
  return { name: e.name, status: e.status, message: e.message };
}

async function main() {
  const chat = remoteAgent({ url: `${base}/api/chat` });

  // Several turns of one chat: the client resumes each from the last snapshot.
  const session = chat.chat();
  const first = await session.send('hello');
  const second = await session.send('again');
  report.turns = [first, second].map((r) => ({
    text: r.text,
    finishReason: r.finishReason,
    snapshotId: r.snapshotId,
    sessionId: r.sessionId,
  }));
  report.messagesAfterTwoTurns = session.messages.length;

  // Snapshot chaining, read back with getSnapshot.
  const snapshot = await chat.getSnapshot(second.snapshotId);
  report.secondSnapshot = {
    parentId: snapshot.parentId,
    status: snapshot.status,
    messages: snapshot.state.messages.length,
  };
  const latest = await chat.getSnapshot({ sessionId: first.sessionId });
  report.latestOfSession = latest.snapshotId;

  // A streamed turn: chunks as they come.
  const turn = session.sendStream('stream it');
  const chunks = [];
  for await (const chunk of turn.stream) {
    if (chunk.text) chunks.push(chunk.text);
  }
  report.streamed = { chunks, text: (await turn.response).text };

  // A detach, then the task's own wait (which polls getSnapshot).
  const task = await chat.chat().detach('work in the background');
  const settled = await task.wait({ intervalMs: 50 });
  report.detached = {
    snapshotId: task.snapshotId,
    status: settled.status,
    lastMessage: settled.state.messages[settled.state.messages.length - 1].content[0].text,
  };

  // An abort of a run that would go on for ever.
  const blocked = await chat.chat().detach('[block] forever');
  report.abortAnswer = await blocked.abort();
  let aborted = await blocked.wait({ intervalMs: 50 });
  // The abort itself writes only the status (the store contract leaves finishReason empty); the
  // worker's finaliser adds the reason once the cancelled run has unwound, so read until it is there.
  for (let reads = 0; !aborted.finishReason && reads < 600; reads++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    aborted = await chat.getSnapshot(blocked.snapshotId);
  }
  report.aborted = { status: aborted.status, finishReason: aborted.finishReason };

  // A failed turn and a refused init arrive as AgentErrors with their status.
  try {
    await chat.chat().send('[fail] please');
    report.failed = 'no error';
  } catch (e) {
    report.failed = describeError(e);
  }
  try {
    await chat.chat({ snapshotId: 'no-such-snapshot' }).send('hi');
    report.unknownSnapshot = 'no error';
  } catch (e) {
    report.unknownSnapshot = describeError(e);
  }

  // A client-managed agent: the state goes back and forth.
  const stateless = remoteAgent({ url: `${base}/agents/stateless` }).chat();
  await stateless.send('one');
  const two = await stateless.send('two');
  report.stateless = { messages: stateless.messages.length, text: two.text, snapshotId: two.snapshotId };

  // A detach the client-managed agent cannot take is refused with its status.
  try {
    await remoteAgent({ url: `${base}/agents/stateless` }).chat().detach('in the background');
    report.detachRefused = 'no error';
  } catch (e) {
    report.detachRefused = describeError(e);
  }
}

main().then(
  () => {
    console.log(JSON.stringify(report));
    process.exit(0);
  },
  (e) => {
    console.error(e && e.stack ? e.stack : String(e));
    console.log(JSON.stringify({ ...report, crashed: String(e) }));
    process.exit(1);
  }
);
