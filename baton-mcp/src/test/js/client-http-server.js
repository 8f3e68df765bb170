// The streamable HTTP MCP server of McpClientHttpTest: stateless, one server per request, printing
// LISTENING <port>. The "headers" tool answers the headers its request came with; the API key
// "wrong" is refused with 401.
import { createServer as createHttpServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createServer } from './client-tools.js';

const cancellations = [];
const http = createHttpServer(async (req, res) => {
  if (req.url !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  if (req.headers['x-api-key'] === 'wrong') {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    return;
  }
  const server = createServer(cancellations, (extra) => {
    const headers = extra.requestInfo?.headers ?? {};
    return { 'x-api-key': headers['x-api-key'] ?? null, authorization: headers.authorization ?? null };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(0, '127.0.0.1', () => console.log(`LISTENING ${http.address().port}`));
