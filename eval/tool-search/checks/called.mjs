// Passes when the first MCP call of the run (mcp-calls.log, written by the servers) was the
// expected tool with at least the expected arguments: the task is about choosing the right tool.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const [expected, argsText] = process.argv.slice(2);
const wanted = JSON.parse(argsText);
let log = '';
try {
  log = readFileSync('mcp-calls.log', 'utf8');
} catch {
  throw new Error('no MCP call succeeded (a wrong tool, or arguments its schema refused)');
}
const [first] = log.trim().split('\n');
const space = first.indexOf(' ');
const [tool, args] = [first.slice(0, space), JSON.parse(first.slice(space + 1))];
if (tool !== expected) throw new Error(`called ${tool}, expected ${expected}`);
for (const [key, value] of Object.entries(wanted)) if (!isDeepStrictEqual(args[key], value)) throw new Error(`${tool} got ${key}=${JSON.stringify(args[key])}, expected ${JSON.stringify(value)}`);
