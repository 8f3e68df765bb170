// The TypeScript SDK's own client, timing calls of the benchmark server's "echo" tool:
//   node client.mjs stdio <calls> <warmups>        starts `node server.mjs stdio` itself
//   node client.mjs http <url> <calls> <warmups>   connects to a running `node server.mjs http`
// Prints one JSON line: the mean wall time of a measured call, in microseconds.
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [transportName, ...rest] = process.argv.slice(2);
const transport =
  transportName === 'stdio'
    ? new StdioClientTransport({
        command: process.execPath,
        args: [fileURLToPath(new URL('server.mjs', import.meta.url)), 'stdio'],
      })
    : new StreamableHTTPClientTransport(new URL(rest.shift()));
const [calls, warmups] = rest.map(Number);

const client = new Client({ name: 'bench-client', version: '1.0.0' });
await client.connect(transport);
const call = () => client.callTool({ name: 'echo', arguments: { text: 'hello' } });
const first = await call();
if (first.content?.[0]?.text !== 'hello') {
  throw new Error(`echo answered ${JSON.stringify(first)}`);
}
for (let i = 1; i < warmups; i++) {
  await call();
}
const start = process.hrtime.bigint();
for (let i = 0; i < calls; i++) {
  await call();
}
const micros = Number(process.hrtime.bigint() - start) / 1000 / calls;
console.log(JSON.stringify({ impl: 'ts-sdk', transport: transportName, calls, warmups, micros }));
await client.close();
