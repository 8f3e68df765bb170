// A Genkit JS app that serves one agent over HTTP with @genkit-ai/express, for baton-server's
// interop tests and load benchmark. Usage: node server.cjs [--delay-ms N]
//
// The agent "researcher" keeps its sessions in an InMemorySessionStore and runs on a scripted
// model: it streams "researched: " and the last user text in two chunks after waiting N ms
// (default 0). A user text containing "[slow]" makes it wait until the run is aborted. The agent
// "scribe" answers the same way but keeps no sessions (no store), so it refuses a detach. The agent
// "clerk" keeps its sessions and files a report through a tool that asks first: its model calls
// file_report (ref "f1") with the user's text as the title, the tool interrupts with
// {"question": "File <title>?"} until it is restarted, and then returns "filed <title> (<the
// restart's resumed data>)"; once the tool has answered (run or responded to), the model says
// "clerk: " and the tool's output. Routes: POST /agents/researcher, /agents/researcher/getSnapshot,
// /agents/researcher/abort, /agents/scribe, /agents/clerk, /agents/clerk/getSnapshot,
// /agents/clerk/abort. The server prints "LISTENING <port>" once it listens on a free loopback
// port.
//
// genkit/beta and @genkit-ai/express are both loaded as CommonJS: loading genkit as ESM beside
// the CommonJS plugin gives two GenkitError classes, and every init error becomes a 500.
'use strict';

const { genkit, z, InMemorySessionStore } = require('genkit/beta');
const { expressHandler } = require('@genkit-ai/express');
const express = require('express');

const delayArg = process.argv.indexOf('--delay-ms');
const delayMs = delayArg > 0 ? Number(process.argv[delayArg + 1]) : 0;

const ai = genkit({});

function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
}

ai.defineModel(
  { name: 'scripted', apiVersion: 'v2', supports: { multiturn: true, systemRole: true } },
  async (request, { sendChunk, abortSignal }) => {
    const users = request.messages.filter((m) => m.role === 'user');
    const last = users.length ? users[users.length - 1] : undefined;
    const text = (last?.content ?? []).map((p) => p.text ?? '').join('');
    await sleep(text.includes('[slow]') ? 600000 : delayMs, abortSignal);
    const answer = 'researched: ' + text;
    sendChunk?.({ index: 0, role: 'model', content: [{ text: 'researched: ' }] });
    sendChunk?.({ index: 0, role: 'model', content: [{ text }] });
    return {
      message: { role: 'model', content: [{ text: answer }] },
      finishReason: 'stop',
      usage: { inputTokens: 7, outputTokens: 3 },
    };
  }
);

const researcher = ai.defineAgent({
  name: 'researcher',
  model: 'scripted',
  system: 'Research the question and answer in a sentence.',
  store: new InMemorySessionStore(),
});

const scribe = ai.defineAgent({
  name: 'scribe',
  model: 'scripted',
  system: 'Write down the question in a sentence.',
});

const fileReport = ai.defineTool(
  {
    name: 'file_report',
    description: 'Files a report, once the user agrees.',
    inputSchema: z.object({ title: z.string() }),
  },
  async (input, { interrupt, resumed }) => {
    if (!resumed) {
      interrupt({ question: 'File ' + input.title + '?' });
    }
    return 'filed ' + input.title + ' (' + JSON.stringify(resumed) + ')';
  }
);

ai.defineModel(
  { name: 'clerk-model', apiVersion: 'v2', supports: { multiturn: true, tools: true } },
  async (request) => {
    const last = request.messages[request.messages.length - 1];
    const answered = last.role === 'tool' ? last.content.find((p) => p.toolResponse) : undefined;
    const message = answered
      ? {
          role: 'model',
          content: [{ text: 'clerk: ' + JSON.stringify(answered.toolResponse.output) }],
        }
      : {
          role: 'model',
          content: [
            {
              toolRequest: {
                name: 'file_report',
                ref: 'f1',
                input: { title: (last.content ?? []).map((p) => p.text ?? '').join('') },
              },
            },
          ],
        };
    return { message, finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 2 } };
  }
);

const clerk = ai.defineAgent({
  name: 'clerk',
  model: 'clerk-model',
  system: 'File what the user asks for.',
  tools: [fileReport],
  store: new InMemorySessionStore(),
});

const app = express();
app.use(express.json({ limit: '4mb' }));
app.post('/agents/researcher', expressHandler(researcher));
app.post('/agents/researcher/getSnapshot', expressHandler(researcher.getSnapshotDataAction));
app.post('/agents/researcher/abort', expressHandler(researcher.abortAgentAction));
app.post('/agents/scribe', expressHandler(scribe));
app.post('/agents/clerk', expressHandler(clerk));
app.post('/agents/clerk/getSnapshot', expressHandler(clerk.getSnapshotDataAction));
app.post('/agents/clerk/abort', expressHandler(clerk.abortAgentAction));

const server = app.listen(0, '127.0.0.1', () => {
  console.log('LISTENING ' + server.address().port);
});
server.keepAliveTimeout = 60000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
