// Validates what a Baton runtime served with the Genkit tools' own zod schemas, as the CLI and the
// Developer UI read them. Usage: node validate.js <payloads.json>, where the file holds
// {actions: {<key>: action}, chunks: [AgentStreamChunk], outputs: [AgentOutput],
//  responses: [RunActionResponse]}. Prints each problem and exits 1 if there is any.
const fs = require('fs');
const tools = require('@genkit-ai/tools-common');

const payloads = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const problems = [];
function check(schema, value, what) {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    problems.push(`${what}: ${JSON.stringify(parsed.error.issues)}`);
  }
}
for (const [key, action] of Object.entries(payloads.actions)) {
  check(tools.ActionSchema, action, `action ${key}`);
}
payloads.chunks.forEach((c, i) => check(tools.AgentStreamChunkSchema, c, `chunk ${i}`));
payloads.outputs.forEach((o, i) => check(tools.AgentOutputSchema, o, `output ${i}`));
payloads.responses.forEach((r, i) => check(tools.RunActionResponseSchema, r, `response ${i}`));
if (problems.length > 0) {
  console.log(problems.join('\n'));
  process.exit(1);
}
console.log(`valid: ${Object.keys(payloads.actions).length} actions, ${payloads.chunks.length} chunks, ` +
  `${payloads.outputs.length} outputs, ${payloads.responses.length} responses`);
