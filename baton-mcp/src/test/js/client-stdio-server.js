// The stdio MCP server of McpClient*Test. With SPAWN_CHILD=1 it starts a child process that lives
// as long as it is not killed, as npx's node does, so a test can check that close stops the tree.
// With STARTED_FILE set, it writes its pid there once it runs. With IGNORE_SIGTERM=1 it ignores
// SIGTERM and outlives its stdin, so that only SIGKILL stops it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './client-tools.js';

if (process.env.SPAWN_CHILD === '1') {
  globalThis.grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    stdio: 'ignore',
  });
}
if (process.env.IGNORE_SIGTERM === '1') {
  process.on('SIGTERM', () => {});
  setInterval(() => {}, 1000);
}
if (process.env.STARTED_FILE) {
  writeFileSync(process.env.STARTED_FILE, String(process.pid));
}
await createServer().connect(new StdioServerTransport());
