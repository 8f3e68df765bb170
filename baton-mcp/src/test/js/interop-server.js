// An MCP server on the official TypeScript SDK, for baton-mcp's interop tests: Baton's client
// against a server no one here wrote. Usage:
//   node interop-server.js stdio      serves one client on stdin/stdout
//   node interop-server.js http       serves streamable HTTP at /mcp on a free loopback port and
//                                     prints "LISTENING <port>"
//
// Tools:
//   echo    answers its "text" argument; its input schema is JSON Schema 2020-12 with a "$defs"
//           entry and a "$ref" to it, as Python servers (pydantic) write them
//   add     adds "a" and "b"; answers with structured output ({"sum": n}) and its text form
//   fail    always answers a tool error (isError: true) with the text "the tool failed: <why>"
//   sleep   waits "ms" milliseconds (or until the request is cancelled), then answers "slept"
// The prompt "greet" takes a "name" argument and answers one user message "Hello, <name>!".
//
// The schemas are written out rather than derived from zod: the SDK's McpServer only emits
// draft-07 schemas, and the point of "echo" is a 2020-12 one.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';

const ECHO_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    text: { type: 'string', description: 'what to echo' },
    style: { $ref: '#/$defs/Style' },
  },
  required: ['text'],
  additionalProperties: false,
  $defs: {
    Style: {
      type: 'object',
      properties: { upper: { type: 'boolean' } },
    },
  },
};

const TOOLS = [
  { name: 'echo', description: 'Answers its text.', inputSchema: ECHO_SCHEMA },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    outputSchema: {
      type: 'object',
      properties: { sum: { type: 'number' } },
      required: ['sum'],
    },
  },
  {
    name: 'fail',
    description: 'Always fails.',
    inputSchema: { type: 'object', properties: { why: { type: 'string' } } },
  },
  {
    name: 'sleep',
    description: 'Waits, then answers.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
  },
];

function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function callTool({ name, arguments: args = {} }, { signal }) {
  switch (name) {
    case 'echo': {
      const text = args.style?.upper ? String(args.text).toUpperCase() : String(args.text);
      return { content: [{ type: 'text', text }] };
    }
    case 'add': {
      const sum = Number(args.a) + Number(args.b);
      return { content: [{ type: 'text', text: String(sum) }], structuredContent: { sum } };
    }
    case 'fail':
      return {
        content: [{ type: 'text', text: 'the tool failed: ' + (args.why ?? 'no reason') }],
        isError: true,
      };
    case 'sleep':
      await sleep(Number(args.ms), signal);
      return { content: [{ type: 'text', text: 'slept' }] };
    default:
      throw new McpError(ErrorCode.InvalidParams, 'Unknown tool: ' + name);
  }
}

function newServer() {
  const server = new Server(
    { name: 'interop-server', version: '1.0.0' },
    { capabilities: { tools: {}, prompts: {} } }
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    callTool(request.params, extra)
  );
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: 'greet',
        description: 'Greets someone.',
        arguments: [{ name: 'name', required: true }],
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== 'greet') {
      throw new McpError(ErrorCode.InvalidParams, 'Unknown prompt: ' + request.params.name);
    }
    const who = request.params.arguments?.name ?? 'nobody';
    return {
      messages: [{ role: 'user', content: { type: 'text', text: 'Hello, ' + who + '!' } }],
    };
  });
  return server;
}

async function serveHttp() {
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    if (!req.url.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const id = req.headers['mcp-session-id'];
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id) {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(0, '127.0.0.1', () => {
    console.log('LISTENING ' + httpServer.address().port);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (process.argv[2] === 'http') {
  await serveHttp();
} else {
  await newServer().connect(new StdioServerTransport());
}
