// An A2A agent written with the A2A JS SDK, served over A2A 0.3 JSON-RPC (the SDK's v0.3
// compatibility layer), for Baton's A2A client tests. What it does depends on the user's text:
//   "fail: ..."  the task fails with the message "the research failed";
//   "hold: ..."  the task stays working until POST /control/release, or until it is cancelled;
//                released, it publishes "report.md" in two chunks, then completes as otherwise;
//   "ask: ..."   the task asks "Which year?" (input-required); the next message in the task
//                completes it with "answered: <text>";
//   otherwise    it completes at once, answering "echo: <text>" with one artifact, and names how
//                many messages its context has had ("turn <n>"), so that a test sees a continuation.
// GET /control/methods lists the JSON-RPC methods called so far, in order, so that a test sees how
// Baton waited. With "--card-url <url>" the card names that URL as its JSON-RPC interface (a card
// that lies).
// Prints "LISTENING <port>" once it listens on a free loopback port. Usage:
//   node agent-server.mjs [--card-url <url>]
import express from 'express';
import { randomUUID } from 'node:crypto';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const cardUrlArg = process.argv.indexOf('--card-url');
const cardUrl = cardUrlArg > 0 ? process.argv[cardUrlArg + 1] : undefined;
const turnsByContext = new Map();
const held = new Map(); // taskId -> resolve(outcome)
const methods = [];

function text(value) {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' };
}

function agentMessage(ctx, value) {
  return {
    messageId: randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId, role: 2,
    parts: [text(value)], metadata: undefined, extensions: [], referenceTaskIds: [],
  };
}

function artifact(ctx, artifactId, name, value, append, lastChunk) {
  return AgentEvent.artifactUpdate({
    taskId: ctx.taskId, contextId: ctx.contextId,
    artifact: {
      artifactId, name, description: '', parts: [text(value)], metadata: undefined, extensions: [],
    },
    append, lastChunk, metadata: undefined,
  });
}

function status(ctx, state, message) {
  return AgentEvent.statusUpdate({
    taskId: ctx.taskId, contextId: ctx.contextId,
    status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined,
  });
}

const executor = {
  async execute(ctx, bus) {
    const said = ctx.userMessage.parts
      .map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    const turn = (turnsByContext.get(ctx.contextId) ?? 0) + 1;
    turnsByContext.set(ctx.contextId, turn);
    bus.publish(AgentEvent.task(ctx.task ?? {
      id: ctx.taskId, contextId: ctx.contextId,
      status: { state: 1, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [], history: [ctx.userMessage], metadata: undefined,
    }));
    bus.publish(status(ctx, 2, undefined));
    if (ctx.task?.status?.state === 6) {
      bus.publish(status(ctx, 3, agentMessage(ctx, `answered: ${said}`)));
      bus.finished();
      return;
    }
    if (said.startsWith('ask:')) {
      bus.publish(status(ctx, 6, agentMessage(ctx, 'Which year?')));
      bus.finished();
      return;
    }
    if (said.startsWith('hold:')) {
      const outcome = await new Promise((resolve) => held.set(ctx.taskId, resolve));
      held.delete(ctx.taskId);
      if (outcome === 'canceled') {
        bus.publish(status(ctx, 5, agentMessage(ctx, 'stopped')));
        bus.finished();
        return;
      }
      const report = randomUUID();
      bus.publish(artifact(ctx, report, 'report.md', 'first half, ', false, false));
      bus.publish(artifact(ctx, report, 'report.md', 'second half', true, true));
    }
    if (said.startsWith('fail:')) {
      bus.publish(status(ctx, 4, agentMessage(ctx, 'the research failed')));
      bus.finished();
      return;
    }
    bus.publish(artifact(ctx, randomUUID(), 'notes.md', 'notes on ' + said, false, true));
    bus.publish(status(ctx, 3, agentMessage(ctx, `echo: ${said} (turn ${turn})`)));
    bus.finished();
  },
  async cancelTask(taskId) {
    held.get(taskId)?.('canceled');
  },
};

const app = express();
app.use(express.json({ limit: '1mb' }));
app.post('/control/release', (req, res) => {
  for (const resolve of held.values()) resolve('released');
  res.json({ released: true });
});
app.get('/control/held', (req, res) => res.json({ held: [...held.keys()] }));
app.get('/control/methods', (req, res) => res.json({ methods }));
app.use('/a2a', (req, res, next) => {
  methods.push(req.body?.method);
  next();
});

const server = app.listen(0, '127.0.0.1', () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'js-researcher', description: 'A researcher written with the A2A JS SDK.',
    supportedInterfaces: [{ url: cardUrl ?? `${base}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' }],
    provider: undefined, version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {}, securityRequirements: [],
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'research', name: 'research', description: 'Researches a question.', tags: ['research'],
      examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json',
    agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }));
  app.use('/a2a', jsonRpcHandler({
    requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true },
  }));
  console.log(`LISTENING ${server.address().port}`);
});
