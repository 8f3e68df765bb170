// Genkit JS's side of the scenario benchmarks: `node scenarios.mjs <scenario> <protocol>`
// prints one JSON line on stdout, as benchmarks/peers/README.md describes. Each scenario does what
// Baton's does (benchmarks/src/main/java/dev/baton/benchmarks: Fixtures, GenerateBenchmark,
// AgentTurnBenchmark, LongSessionBenchmark): the same canned models, prompts and tool, in process.
import { genkit, InMemorySessionStore, z } from 'genkit/beta';
import { disableGenkitOTelInitialization } from 'genkit/tracing';

// Telemetry off, as Baton's tracing "off": no OpenTelemetry SDK, so Genkit's spans go to the
// API's no-op tracer. Without this Genkit starts a NodeSDK with a batch exporter on first use.
disableGenkitOTelInitialization();

const PROTOCOLS = {
  cold: { warmups: 200, calls: 2_000 },
  '20k': { warmups: 22_000, calls: 20_000 },
};
const LONG_SESSION_TURNS = 200;
const CHAT_ANSWER = 'Sure, here is a short answer.';
const TOOL_ANSWER = 'It is 18 degrees in Paris.';
/** The canned models claim every capability, as Baton's ModelInfo.full does. */
const SUPPORTS_ALL = {
  multiturn: true,
  tools: true,
  systemRole: true,
  media: true,
  toolChoice: true,
  constrained: 'all',
};

const IMPL = 'genkit-js';

function print(result) {
  process.stdout.write(JSON.stringify(result) + '\n');
}

/** Microseconds to one decimal. */
function micros(nanos) {
  return Math.round(Number(nanos) / 100) / 10;
}

/** Fails the run when a scenario did not do what it should: its figure would measure the wrong thing. */
function expect(condition, what) {
  if (!condition) {
    throw new Error('the scenario did not run as it should: ' + what);
  }
}

/**
 * Runs a protocol on a scenario: its set-up (the Genkit instance and its definitions), then
 * warm-ups, the first timed alone and checked, then the measured calls together.
 */
async function repeated(scenario, protocol, setUp) {
  const { warmups, calls } = PROTOCOLS[protocol];
  let start = process.hrtime.bigint();
  const { call, check } = setUp(genkit({}));
  const setup = process.hrtime.bigint() - start;
  start = process.hrtime.bigint();
  const first = await call();
  const firstCall = process.hrtime.bigint() - start;
  const startupMillis = Math.round(performance.now());
  await check(first);
  for (let i = 1; i < warmups; i++) {
    await call();
  }
  start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    await call();
  }
  const measured = process.hrtime.bigint() - start;
  return {
    impl: IMPL,
    scenario,
    protocol,
    warmups,
    calls,
    micros: micros(Number(measured) / calls),
    setupMicros: micros(setup),
    startupMillis,
    firstCallMicros: micros(firstCall),
  };
}

/** Fixtures.chatModel: every call answers with the same text. */
function defineChatModel(ai, name) {
  ai.defineModel({ name, apiVersion: 'v2', supports: SUPPORTS_ALL }, async () => ({
    message: { role: 'model', content: [{ text: CHAT_ANSWER }] },
    finishReason: 'stop',
  }));
}

/** Fixtures.toolModel: calls `lookup` once, then answers once the last message is the tool's. */
function defineToolModel(ai, name) {
  ai.defineModel({ name, apiVersion: 'v2', supports: SUPPORTS_ALL }, async (request) => {
    const last = request.messages[request.messages.length - 1];
    if (last.role === 'tool') {
      return {
        message: { role: 'model', content: [{ text: TOOL_ANSWER }] },
        finishReason: 'stop',
      };
    }
    return {
      message: {
        role: 'model',
        content: [{ toolRequest: { name: 'lookup', ref: 'call-1', input: { city: 'Paris' } } }],
      },
      finishReason: 'stop',
    };
  });
}

/** GenerateBenchmark.toolRound: one generate call with a typed tool, model, tool, model. */
function toolRound(ai) {
  defineToolModel(ai, 'bench');
  const lookup = ai.defineTool(
    {
      name: 'lookup',
      description: 'Weather by city',
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ city: z.string(), celsius: z.number().int() }),
    },
    async ({ city }) => ({ city, celsius: 18 })
  );
  const options = {
    model: 'bench',
    system: 'Be brief.',
    prompt: 'Weather in Paris?',
    tools: [lookup],
  };
  return {
    call: () => ai.generate(options),
    check: (response) => {
      expect(response.text === TOOL_ANSWER, 'answer ' + response.text);
      const history = response.messages.map((m) => m.role).join(',');
      expect(history === 'system,user,model,tool,model', 'history ' + history);
      const output = response.messages[3].content[0].toolResponse?.output;
      expect(output?.celsius === 18, 'tool output ' + JSON.stringify(output));
    },
  };
}

/** AgentTurnBenchmark's agent: a prompt agent on the chat model, sessions in an in-memory store. */
function defineChatAgent(ai) {
  defineChatModel(ai, 'bench');
  return ai.defineAgent({
    name: 'chat',
    model: 'bench',
    system: 'You are a helpful assistant.',
    store: new InMemorySessionStore(),
  });
}

/** Agent.runText's input: one user message. */
function textInput(text) {
  return { message: { role: 'user', content: [{ text }] } };
}

/**
 * AgentTurnBenchmark.oneShotTurn (in-memory store): one turn of a new session, snapshot included.
 * It runs the agent action itself with an empty init, as Baton's runText runs it with
 * AgentInit.NEW; `agent.chat().send()` wraps the same action in a chat object.
 */
function oneShotTurn(ai) {
  const agent = defineChatAgent(ai);
  const input = textInput('Hello!');
  return {
    call: () => agent.run(input, { init: {} }),
    check: async ({ result }) => {
      expect(result.message?.content[0].text === CHAT_ANSWER, 'answer ' + JSON.stringify(result));
      // The snapshot holds the prompt and the answer: an input of the wrong shape would be
      // dropped silently, and the turn would run without its prompt.
      const snapshot = await agent.getSnapshotData({ snapshotId: result.snapshotId });
      const history = snapshot?.state?.messages?.map((m) => m.role).join(',');
      expect(history === 'user,model', 'snapshot history ' + history);
    },
  };
}

/**
 * LongSessionBenchmark's session: 200 turns with nothing run before them, each a new invocation
 * that resumes from the previous turn's snapshot, as Baton's runText(text,
 * AgentInit.ofSnapshot(...)) does. Turn 10 is still cold; turn 200 carries the longest history.
 */
async function longSession(scenario, protocol) {
  const setupStart = process.hrtime.bigint();
  const agent = defineChatAgent(genkit({}));
  const setup = process.hrtime.bigint() - setupStart;
  const turns = [];
  let startupMillis;
  let snapshotId;
  for (let turn = 1; turn <= LONG_SESSION_TURNS; turn++) {
    const input = textInput(turn === 1 ? 'Hello!' : `Tell me more, part ${turn}.`);
    const init = snapshotId ? { snapshotId } : {};
    const start = process.hrtime.bigint();
    const { result } = await agent.run(input, { init });
    turns.push(process.hrtime.bigint() - start);
    startupMillis ??= Math.round(performance.now());
    expect(result.message?.content[0].text === CHAT_ANSWER, 'answer ' + JSON.stringify(result));
    snapshotId = result.snapshotId;
  }
  const last = await agent.getSnapshotData({ snapshotId });
  const history = last.state.messages.length;
  expect(history === 2 * LONG_SESSION_TURNS, 'history of ' + history);
  return {
    impl: IMPL,
    scenario,
    protocol,
    turns: LONG_SESSION_TURNS,
    turn10Micros: micros(turns[9]),
    turn200Micros: micros(turns[LONG_SESSION_TURNS - 1]),
    sessionMicros: micros(turns.reduce((a, b) => a + b, 0n)),
    setupMicros: micros(setup),
    startupMillis,
    firstCallMicros: micros(turns[0]),
  };
}

const USAGE =
  'usage: node scenarios.mjs <toolRound|oneShotTurn|delegation> <cold|20k>' +
  ' or node scenarios.mjs longSession long';
const [scenario, protocol] = process.argv.slice(2);
if (scenario === 'delegation') {
  // Genkit JS 1.42 has no delegation (Agents middleware) of its own; see the README.
  print({ impl: IMPL, scenario, protocol, unsupported: true });
} else if (scenario === 'longSession' && protocol === 'long') {
  print(await longSession(scenario, protocol));
} else if ((scenario === 'toolRound' || scenario === 'oneShotTurn') && protocol in PROTOCOLS) {
  print(await repeated(scenario, protocol, scenario === 'toolRound' ? toolRound : oneShotTurn));
} else {
  console.error(USAGE);
  process.exit(2);
}
