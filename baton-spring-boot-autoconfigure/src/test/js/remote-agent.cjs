// Drives an agent served by a Spring Boot application with Genkit JS's own remoteAgent client, for
// the interop test. Usage: node remote-agent.cjs <agent URL>. It prints one JSON report of what the
// client saw; the Java test checks it. The agent is server-managed and abortable, on a model that
// echoes the user's text, streams "stream it" in two chunks and waits until aborted on "[block]".
'use strict';

const { remoteAgent } = require('genkit/beta/client');

const url = process.argv[2];
const report = {};

async function main() {
  const agent = remoteAgent({ url });

  // Two turns of one chat: the client resumes the second from the first's snapshot.
  const session = agent.chat();
  const first = await session.send('hello');
  const second = await session.send('again');
  report.turns = [first, second].map((r) => ({
    text: r.text,
    snapshotId: r.snapshotId,
    sessionId: r.sessionId,
  }));
  const snapshot = await agent.getSnapshot(second.snapshotId);
  report.secondSnapshot = { parentId: snapshot.parentId, status: snapshot.status };

  // A streamed turn: chunks as they come.
  const turn = session.sendStream('stream it');
  const chunks = [];
  for await (const chunk of turn.stream) {
    if (chunk.text) chunks.push(chunk.text);
  }
  report.streamed = { chunks, text: (await turn.response).text };

  // A detached run that would go on for ever, aborted.
  const blocked = await agent.chat().detach('[block] forever');
  report.abortAnswer = await blocked.abort();
  let aborted = await blocked.wait({ intervalMs: 50 });
  // The abort writes the status; the worker adds the finish reason once the run has unwound.
  for (let reads = 0; !aborted.finishReason && reads < 600; reads++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    aborted = await agent.getSnapshot(blocked.snapshotId);
  }
  report.aborted = { status: aborted.status, finishReason: aborted.finishReason };
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
