#!/usr/bin/env node
/**
 * The client command the MCP conformance suite spawns (`--command`), with the scenario server's
 * URL as its last argument: one run of the built CLI whose only MCP server is that URL, against
 * the scripted model at OPENAI_BASE_URL (the test scripts which tool it calls). A sign-in address
 * the CLI prints (each one) is visited the way a browser would, and its redirect followed back to the CLI.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const url = process.argv.at(-1);
const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const configDir = join(process.env.XDG_CONFIG_HOME, 'vibe-agent');
mkdirSync(configDir, { recursive: true });
writeFileSync(join(configDir, 'config.json'), JSON.stringify({ mcpServers: { conformance: { type: 'http', url } } }));

const child = spawn(process.execPath, [cli, `conformance scenario ${process.env.MCP_CONFORMANCE_SCENARIO}`, '--no-session', '--yes'], { stdio: ['ignore', 'inherit', 'pipe'] });
let stderr = '';
let visited = 0;
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  stderr += chunk;
  const signIns = [...stderr.matchAll(/open this address to sign in: (\S+)\n/g)].map((found) => found[1]);
  for (const address of signIns.slice(visited)) void playBrowser(address).catch((error) => process.stderr.write(`conformance client: the sign-in visit failed: ${error}\n`));
  visited = signIns.length;
});
child.on('close', (code) => process.exit(code ?? 1));
// The suite ends a client that outlives its time limit: the run is ended the same way (it aborts and exits).
process.on('SIGTERM', () => child.kill('SIGTERM'));

async function playBrowser(address) {
  let next = address;
  for (let hops = 0; hops < 5 && next; hops++) {
    const answer = await fetch(next, { redirect: 'manual' });
    const location = answer.headers.get('location');
    next = location ? new URL(location, next).href : undefined;
  }
}
