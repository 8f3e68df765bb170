// A stateful streamable HTTP MCP server for McpClientHttpCancellationTest: each client's
// initialize opens a session (Mcp-Session-Id) kept with its server, so a later
// notifications/cancelled reaches the call it names. Prints LISTENING <port>.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from './client-tools.js';

const cancellations = [];
const transports = new Map();

async function body(req) {
  const chunks = [];
  for await (const chunk of req) {
    chunks.push(chunk);
  }
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createHttpServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const parsed = req.method === 'POST' ? await body(req) : undefined;
  const sessionId = req.headers['mcp-session-id'];
  let transport = sessionId ? transports.get(sessionId) : undefined;
  if (!transport) {
    if (sessionId || !isInitializeRequest(parsed)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such session"}');
      return;
    }
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) {
        transports.delete(transport.sessionId);
      }
    };
    await createServer(cancellations).connect(transport);
  }
  await transport.handleRequest(req, res, parsed);
});
http.listen(0, '127.0.0.1', () => console.log(`LISTENING ${http.address().port}`));
