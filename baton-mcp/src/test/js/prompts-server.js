// An MCP server over stdio for baton-mcp's prompt and resource tests, on the TypeScript SDK.
//
// Prompts: "review" (arguments code, required, and language) renders user and assistant messages
// with text, an image and an embedded resource; "unlock" adds the prompt "secret" and the resource
// "notes://extra", so the server announces that both lists changed.
// Resources: "notes://readme" (text), "images://pixel" (a PNG blob) and the template
// "greetings://{name}".
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

// A 1x1 transparent PNG.
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const server = new McpServer({ name: 'prompts-server', version: '1.0.0' });

server.registerPrompt(
  'review',
  {
    title: 'Code review',
    description: 'Reviews a piece of code',
    argsSchema: {
      code: z.string().describe('The code to review'),
      language: z.string().optional().describe('The language it is written in'),
    },
  },
  ({ code, language }) => ({
    description: 'A review request',
    messages: [
      {
        role: 'user',
        content: { type: 'text', text: `Review this ${language ?? 'unknown'} code:\n${code}` },
      },
      { role: 'assistant', content: { type: 'text', text: 'Send me the style guide too.' } },
      { role: 'user', content: { type: 'image', data: PIXEL, mimeType: 'image/png' } },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'notes://style', mimeType: 'text/plain', text: 'Use two spaces.' },
        },
      },
    ],
  }),
);

let unlocked = false;
server.registerPrompt('unlock', { description: 'Adds a prompt and a resource' }, () => {
  if (!unlocked) {
    unlocked = true;
    server.registerPrompt('secret', { description: 'Appears once unlocked' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'the secret' } }],
    }));
    server.registerResource(
      'extra',
      'notes://extra',
      { description: 'Appears once unlocked', mimeType: 'text/plain' },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'extra notes' }] }),
    );
  }
  return { messages: [{ role: 'user', content: { type: 'text', text: 'unlocked' } }] };
});

server.registerResource(
  'readme',
  'notes://readme',
  { description: 'The read-me', mimeType: 'text/plain' },
  (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Hello from the resource' }],
  }),
);

server.registerResource(
  'pixel',
  'images://pixel',
  { description: 'A one-pixel image', mimeType: 'image/png' },
  (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: PIXEL }] }),
);

server.registerResource(
  'greeting',
  new ResourceTemplate('greetings://{name}', { list: undefined }),
  { description: 'A greeting for a name', mimeType: 'text/plain' },
  (uri, { name }) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Hello, ${name}!` }],
  }),
);

await server.connect(new StdioServerTransport());
