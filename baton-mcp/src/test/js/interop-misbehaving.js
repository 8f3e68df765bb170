// MCP servers that misbehave, for baton-mcp's bad-input tests. Usage:
//   node interop-misbehaving.js <mode> [http]
// Over stdio unless "http" is given (then streamable HTTP at /mcp, printing "LISTENING <port>").
// Modes:
//   malformed     (stdio only) answers every request with lines that are not JSON-RPC: plain
//                 text, a truncated object, a JSON array of numbers; it never exits by itself
//   banner        prints one line of plain text to stdout at start (as a server that logs to stdout
//                 does), then serves the tool "fine" correctly; it never exits by itself
//   bad-schema    lists the tool "broken", whose inputSchema is not valid JSON Schema ("type" is a
//                 number, "required" a string), beside a good tool "fine"
//   huge          the tool "huge" answers 10 MB of text
//   silent-init   never answers initialize
//   silent-call   initializes, lists the tool "hang", and never answers a call to it
//   exit          (stdio only) prints a reason on stderr and exits with code 3 at start
// Every mode but malformed and exit is served by the TypeScript SDK's Server.
import http from 'node:http';
import readline from 'node:readline';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  InitializeRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

const [mode, transportKind = 'stdio'] = process.argv.slice(2);
const HUGE_BYTES = 10 * 1024 * 1024;

const OBJECT = { type: 'object', properties: {} };
const TOOLS = {
  banner: [{ name: 'fine', inputSchema: OBJECT }],
  'bad-schema': [
    {
      name: 'broken',
      inputSchema: { type: 'object', properties: { x: { type: 42 } }, required: 'x' },
    },
    { name: 'fine', inputSchema: OBJECT },
  ],
  huge: [{ name: 'huge', inputSchema: OBJECT }],
  'silent-call': [{ name: 'hang', inputSchema: OBJECT }],
  'silent-init': [],
};

function newServer() {
  const server = new Server(
    { name: 'interop-misbehaving-' + mode, version: '1.0.0' },
    { capabilities: { tools: {} } }
  );
  if (mode === 'silent-init') {
    server.setRequestHandler(InitializeRequestSchema, () => new Promise(() => {}));
  }
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS[mode] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name === 'hang') {
      return new Promise(() => {});
    }
    const text = request.params.name === 'huge' ? 'x'.repeat(HUGE_BYTES) : 'fine';
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

function malformed() {
  // One write per request, and a reader that stops reading is no reason to exit: the server stays
  // up, so what the client sees does not depend on when its reader gave up.
  process.stdout.on('error', () => {});
  const lines = readline.createInterface({ input: process.stdin });
  lines.on('line', () => {
    process.stdout.write('this is not JSON-RPC\n{"jsonrpc":"2.0","id":\n[1,2,3]\n');
  });
}

function serveHttp() {
  // Stateless: each request gets its own server, which the silent modes never mind.
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await newServer().connect(transport);
    await transport.handleRequest(req, res, body);
  });
  httpServer.listen(0, '127.0.0.1', () => {
    console.log('LISTENING ' + httpServer.address().port);
  });
  process.on('SIGTERM', () => process.exit(0));
}

if (mode === 'malformed') {
  malformed();
} else if (mode === 'exit') {
  process.stderr.write('interop-misbehaving: exiting at start as asked\n');
  process.exit(3);
} else if (!(mode in TOOLS)) {
  process.stderr.write('unknown mode ' + mode + '\n');
  process.exit(1);
} else if (transportKind === 'http') {
  serveHttp();
} else {
  if (mode === 'banner') {
    // A reader that stopped reading is no reason to exit (see malformed).
    process.stdout.on('error', () => {});
    process.stdout.write('interop-misbehaving: starting\n');
  }
  await newServer().connect(new StdioServerTransport());
}
