// Drives ten turns through Genkit JS's remoteAgent client, failing and succeeding in turn (fail,
// succeed, fail, ...), for the interop test. Usage: node alternating.cjs <agent URL> <session ID>.
// The Baton side's model echoes the user's text and fails on "[fail]". The turns run twice: in one
// chat, which resumes each turn from the snapshot the last answer named, as the client does; and by
// session ID, a new chat per turn. It prints one JSON report of what the client saw and what the
// server kept; the Java test checks it.
'use strict';

const { remoteAgent } = require('genkit/beta/client');

const [url, sessionId] = process.argv.slice(2);

async function turn(chat, i) {
  const text = i % 2 === 0 ? `[fail] turn ${i}` : `turn ${i}`;
  try {
    const response = await chat.send(text);
    return { ok: true, text: response.text, snapshotId: response.snapshotId };
  } catch (e) {
    return { ok: false, name: e.name, status: e.status, snapshotId: e.snapshotId ?? null };
  }
}

function texts(snapshot) {
  return snapshot.state.messages.map((m) => m.content.map((p) => p.text ?? '').join(''));
}

async function main() {
  const agent = remoteAgent({ url });
  const report = { bySnapshot: [], bySession: [] };

  const chat = agent.chat();
  for (let i = 0; i < 10; i++) {
    const seen = await turn(chat, i);
    // What the client resumes the next turn from.
    seen.held = chat.snapshotId ?? null;
    report.bySnapshot.push(seen);
  }
  report.chatMessages = chat.messages.length;
  report.bySnapshotHistory = texts(await agent.getSnapshot(chat.snapshotId));

  for (let i = 0; i < 10; i++) {
    report.bySession.push(await turn(agent.chat({ sessionId }), i));
  }
  report.bySessionHistory = texts(await agent.getSnapshot({ sessionId }));
  console.log(JSON.stringify(report));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
