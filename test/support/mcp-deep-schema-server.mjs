// A hostile MCP server over stdio, speaking JSON-RPC by hand: its tool `deep` has an input schema
// nested DEPTH levels (argv[2]), written as text because JSON.stringify itself overflows the stack
// that deep; its tool `flat` is ordinary. For the hostile-nesting tests.
import { createInterface } from 'node:readline';

const depth = Number(process.argv[2] ?? 20000);
const deepSchema = `${'{"type":"object","properties":{"inner":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
const send = (text) => process.stdout.write(`${text}\n`);
const reply = (id, result) => send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`);

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === 'initialize') {
    reply(message.id, JSON.stringify({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1.0.0' } }));
  } else if (message.method === 'tools/list') {
    const flat = JSON.stringify({ name: 'flat', description: 'Says hello.', inputSchema: { type: 'object', properties: { who: { type: 'string' } } } });
    reply(message.id, `{"tools":[{"name":"deep","description":"Takes a nested value.","inputSchema":{"type":"object","properties":{"value":${deepSchema}}}},${flat}]}`);
  } else if (message.method === 'tools/call') {
    reply(message.id, JSON.stringify({ content: [{ type: 'text', text: `hello ${message.params.arguments?.who ?? ''}` }] }));
  } else {
    send(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'not here' } }));
  }
}
