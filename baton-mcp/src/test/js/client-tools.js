// The tools of the MCP test servers of McpClient*Test, on the TypeScript SDK's low-level Server so
// that every schema and result goes out exactly as written here.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';

// A 1x1 PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const object = (properties, required = []) => ({ type: 'object', properties, required });
const text = (value) => ({ content: [{ type: 'text', text: value }] });

// How many calls of "sleep" this process has begun, so a test cancels one the server holds.
let sleepsBegun = 0;

/** A fresh server with the test tools; cancellations is shared so one process keeps one record. */
export function createServer(cancellations = [], requestHeaders = () => ({})) {
  const server = new Server(
    { name: 'client-test-server', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );

  const tools = {
    echo: {
      description: 'Echoes its text',
      inputSchema: object({ text: { type: 'string' } }, ['text']),
      run: ({ text: value }) => text(`echo: ${value}`),
    },
    image: {
      description: 'A tiny picture',
      inputSchema: object({}),
      run: () => ({
        content: [
          { type: 'text', text: 'a picture' },
          { type: 'image', data: PNG, mimeType: 'image/png' },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        ],
      }),
    },
    resources: {
      description: 'Embedded resources and a link',
      inputSchema: object({}),
      run: () => ({
        content: [
          { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
          { type: 'resource', resource: { uri: 'file:///logo.png', mimeType: 'image/png', blob: PNG } },
          { type: 'resource_link', uri: 'file:///big.csv', name: 'big.csv', mimeType: 'text/csv' },
        ],
      }),
    },
    add: {
      description: 'Adds two numbers',
      inputSchema: object({ a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
      outputSchema: object({ sum: { type: 'number' } }, ['sum']),
      run: ({ a, b }) => ({
        content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }],
        structuredContent: { sum: a + b },
      }),
    },
    fail: {
      description: 'Always fails as a tool result',
      inputSchema: object({}),
      run: () => ({ content: [{ type: 'text', text: 'the disk is full' }], isError: true }),
    },
    shapes: {
      description: 'A 2020-12 schema with $defs and prefixItems',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          point: object({ x: { type: 'number' }, y: { type: 'number' } }, ['x', 'y']),
        },
        properties: {
          from: { $ref: '#/$defs/point' },
          pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
        },
        required: ['from'],
        additionalProperties: false,
      },
      run: (args) => text(JSON.stringify(args)),
    },
    broken_schema: {
      description: 'A schema that is not JSON Schema',
      inputSchema: { type: 'object', properties: { x: { type: 12 } } },
      run: () => text('unreachable'),
    },
    sleep: {
      description: 'Waits until cancelled',
      inputSchema: object({}),
      run: (args, extra) =>
        new Promise((resolve) => {
          sleepsBegun += 1;
          const cancelled = () => {
            cancellations.push({ requestId: extra.requestId, reason: String(extra.signal.reason ?? '') });
            resolve(text('cancelled'));
          };
          // The cancellation may have been read before this handler ran.
          if (extra.signal.aborted) {
            cancelled();
          } else {
            extra.signal.addEventListener('abort', cancelled);
          }
        }),
    },
    sleeps_begun: {
      description: 'How many calls of sleep have begun',
      inputSchema: object({}),
      run: () => text(String(sleepsBegun)),
    },
    cancellations: {
      description: 'The calls cancelled so far',
      inputSchema: object({}),
      run: () => text(JSON.stringify(cancellations)),
    },
    crash: {
      description: 'Ends the process in the middle of the call',
      inputSchema: object({}),
      run: () => {
        process.exit(3);
      },
    },
    pids: {
      description: 'This process and the child it started',
      inputSchema: object({}),
      run: () => text(JSON.stringify({ pid: process.pid, child: globalThis.grandchild?.pid ?? null })),
    },
    env: {
      description: 'An environment variable',
      inputSchema: object({ name: { type: 'string' } }, ['name']),
      run: ({ name }) => text(process.env[name] ?? '<unset>'),
    },
    headers: {
      description: 'The HTTP headers of this call',
      inputSchema: object({}),
      run: (args, extra) => text(JSON.stringify(requestHeaders(extra))),
    },
    removable: {
      description: 'Goes away on change_tools',
      inputSchema: object({}),
      run: () => text('still here'),
    },
    change_tools: {
      description: 'Removes "removable", adds "added", and says so',
      inputSchema: object({}),
      run: async () => {
        delete tools.removable;
        tools.added = { description: 'Added later', inputSchema: object({}), run: () => text('new') };
        await server.sendToolListChanged();
        return text('changed');
      },
    },
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools[request.params.name];
    if (!tool) {
      throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`);
    }
    return tool.run(request.params.arguments ?? {}, extra);
  });
  return server;
}
