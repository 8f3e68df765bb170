// The MCP server of the benchmark, on the TypeScript SDK: one tool, "echo", that answers with the
// text it was given. `node server.mjs stdio` serves on standard input and output; `node server.mjs
// http` serves streamable HTTP at http://127.0.0.1:<port>/mcp, one session per client, and prints
// `LISTENING <port>` once it listens.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

function echoServer() {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Answers with the text it was given.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

const mode = process.argv[2];
if (mode === 'stdio') {
  await echoServer().connect(new StdioServerTransport());
} else if (mode === 'http') {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    if (!req.url?.startsWith('/mcp')) {
      res.writeHead(404).end();
      return;
    }
    let transport = sessions.get(req.headers['mcp-session-id']);
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await echoServer().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  http.keepAliveTimeout = 60_000;
  http.listen(0, '127.0.0.1', () => console.log(`LISTENING ${http.address().port}`));
} else {
  console.error('usage: node server.mjs stdio|http');
  process.exit(2);
}
