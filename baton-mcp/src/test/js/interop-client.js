// An MCP client on the official TypeScript SDK, for baton-mcp's interop tests: a server no one
// here wrote the client of, Baton's, driven by the TypeScript SDK. Usage:
//   node interop-client.js [options] stdio <command> [args...]   spawns the server
//   node interop-client.js [options] http <url>                  connects over streamable HTTP
// Options, run in this order after the tools are listed:
//   --token <t>                   sends "Authorization: Bearer <t>" (HTTP)
//   --call <tool> <json args>     calls a tool (repeatable); the string "$sessionId" anywhere in
//                                 the arguments stands for the last sessionId a call answered
//                                 (in its structuredContent)
//   --prompt <name> <json args>   gets a prompt (repeatable)
//
// Prints one JSON line per step:
//   {"step":"connect","server":{name,version},"capabilities":{...}}
//   {"step":"tools","tools":[{name,description,inputSchema,outputSchema?}...]}
//   {"step":"call","name":...,"result":CallToolResult}   or ..."error":{code,message}}
//   {"step":"prompt","name":...,"result":GetPromptResult} or ..."error":{code,message}}
// Exits 0 when it connected and listed the tools (a failed call or prompt is a printed answer,
// not a failure), 2 when it could not connect or list, 1 on bad usage.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const args = process.argv.slice(2);
const steps = [];
let token;
while (args.length && args[0].startsWith('--')) {
  const option = args.shift();
  if (option === '--token') {
    token = args.shift();
  } else if (option === '--call' || option === '--prompt') {
    steps.push({ kind: option.slice(2), name: args.shift(), arguments: JSON.parse(args.shift()) });
  } else {
    usage('unknown option ' + option);
  }
}

function usage(why) {
  console.error(why);
  process.exit(1);
}

function print(line) {
  process.stdout.write(JSON.stringify(line) + '\n');
}

function errorOf(e) {
  return { code: e.code ?? null, message: String(e.message ?? e) };
}

function transportOf(kind, rest) {
  if (kind === 'stdio') {
    if (!rest.length) usage('stdio needs a command');
    return new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: 'inherit' });
  }
  if (kind === 'http') {
    if (rest.length !== 1) usage('http needs one URL');
    const headers = token ? { Authorization: 'Bearer ' + token } : {};
    return new StreamableHTTPClientTransport(new URL(rest[0]), { requestInit: { headers } });
  }
  usage('expected stdio or http, got ' + kind);
}

const transport = transportOf(args[0], args.slice(1));
const client = new Client({ name: 'interop-client', version: '1.0.0' });
let exit = 0;
try {
  await client.connect(transport);
  print({
    step: 'connect',
    server: client.getServerVersion(),
    capabilities: client.getServerCapabilities(),
  });
  const { tools } = await client.listTools();
  print({ step: 'tools', tools });
} catch (e) {
  print({ step: 'connect', error: errorOf(e) });
  exit = 2;
}
let sessionId;
for (const step of exit === 0 ? steps : []) {
  try {
    const args = JSON.parse(JSON.stringify(step.arguments).replaceAll('$sessionId', sessionId));
    const result =
      step.kind === 'call'
        ? await client.callTool({ name: step.name, arguments: args })
        : await client.getPrompt({ name: step.name, arguments: args });
    sessionId = result.structuredContent?.sessionId ?? sessionId;
    print({ step: step.kind, name: step.name, result });
  } catch (e) {
    print({ step: step.kind, name: step.name, error: errorOf(e) });
  }
}
await client.close().catch(() => {});
process.exit(exit);
