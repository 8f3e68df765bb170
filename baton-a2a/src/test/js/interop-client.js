// The A2A JavaScript SDK's client against a Baton agent served over A2A 0.3. The SDK speaks A2A
// 1.0 natively and reaches 0.3 servers through its compatibility layer, which reads the card's
// protocolVersion and picks the v0.3 JSON-RPC transport.
//
// Usage: node interop-client.js <scenario> <agent base URL>
// Prints one JSON line with what the scenario saw; the Java test asserts on it.
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Role, TaskState } from '@a2a-js/sdk';

const [scenario, baseUrl] = process.argv.slice(2);

const factory = new ClientFactory(
  ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ legacyCompat: { enabled: true } })],
    cardResolver: new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }),
  }),
);
// The SDK resolves the well-known path against the origin, so a card under a path is named whole.
const client = await factory.createFromUrl(`${baseUrl}/.well-known/agent-card.json`, '');

let ids = 0;
function message(text, contextId = '', taskId = '') {
  return {
    messageId: `js-${++ids}`,
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function request(msg, returnImmediately = false) {
  return {
    tenant: '',
    message: msg,
    configuration: {
      acceptedOutputModes: ['text/plain'],
      taskPushNotificationConfig: undefined,
      returnImmediately,
    },
    metadata: undefined,
  };
}

const stateName = (state) => TaskState[state];
const text = (msg) =>
  (msg?.parts ?? [])
    .map((p) => (p.content?.$case === 'text' ? p.content.value : JSON.stringify(p.content?.value)))
    .join('');
const summary = (task) => ({
  id: task.id,
  contextId: task.contextId,
  state: stateName(task.status?.state),
  text: text(task.status?.message),
});

const artifact = (a) => ({ artifactId: a?.artifactId, name: a?.name, text: text(a) });

const out = {};
switch (scenario) {
  case 'send': {
    const first = await client.sendMessage(request(message('What limits binary search?')));
    out.first = summary(first);
    const second = await client.sendMessage(
      request(message('And uniform keys?', first.contextId)),
    );
    out.second = summary(second);
    out.got = summary(await client.getTask({ tenant: '', id: first.id }));
    break;
  }
  case 'stream': {
    out.events = [];
    out.artifactUpdates = [];
    for await (const event of client.sendMessageStream(request(message('Stream it')))) {
      out.events.push(event.kind ?? event.payload?.$case ?? Object.keys(event).join(','));
      const task = event.payload?.value ?? event;
      out.taskId = task.taskId || task.id || out.taskId;
      if (task.status) {
        out.lastState = stateName(task.status.state);
        out.lastText = text(task.status.message);
      }
      // An artifact the task made before the stream attached comes in the task itself.
      if (event.payload?.$case === 'task') {
        for (const made of task.artifacts ?? []) {
          out.artifactUpdates.push({ taskId: task.id, ...artifact(made), inTask: true });
        }
      }
      if (event.payload?.$case === 'artifactUpdate') {
        out.artifactUpdates.push({
          taskId: task.taskId,
          ...artifact(task.artifact),
          append: task.append,
          lastChunk: task.lastChunk,
        });
      }
    }
    out.artifacts = ((await client.getTask({ tenant: '', id: out.taskId })).artifacts ?? []).map(
      artifact,
    );
    break;
  }
  case 'cancel': {
    const started = await client.sendMessage(request(message('Research forever'), true));
    out.started = summary(started);
    out.canceled = summary(await client.cancelTask({ tenant: '', id: started.id, metadata: undefined }));
    out.got = summary(await client.getTask({ tenant: '', id: started.id }));
    break;
  }
  case 'resubscribe': {
    const started = await client.sendMessage(request(message('Research slowly'), true));
    out.started = summary(started);
    out.events = [];
    for await (const event of client.resubscribeTask({ tenant: '', id: started.id })) {
      const { $case, value } = event.payload;
      out.events.push({
        kind: $case,
        taskId: $case === 'task' ? value.id : value.taskId,
        state: stateName(value.status?.state),
      });
      if (value.status) {
        out.lastText = text(value.status.message);
      }
      if (out.events.length === 1) {
        // The model holds the task until it answers this message: the task completes only after
        // the resubscription has seen it running.
        await client.sendMessage(request(message('Release the research')));
      }
    }
    out.got = summary(await client.getTask({ tenant: '', id: started.id }));
    break;
  }
  case 'input-required': {
    const asked = await client.sendMessage(request(message('Publish the notes')));
    out.asked = summary(asked);
    const done = await client.sendMessage(request(message('yes', asked.contextId, asked.id)));
    out.done = summary(done);
    out.got = summary(await client.getTask({ tenant: '', id: asked.id }));
    try {
      await client.sendMessage(request(message('yes again', asked.contextId, asked.id)));
      out.againError = null;
    } catch (error) {
      out.againError = String(error.message);
    }
    break;
  }
  case 'unknown-task': {
    try {
      await client.getTask({ tenant: '', id: 'no-such-task' });
      out.error = null;
    } catch (error) {
      out.error = error.constructor.name;
      out.message = String(error.message);
    }
    break;
  }
  default:
    throw new Error(`unknown scenario ${scenario}`);
}
console.log(JSON.stringify(out));
