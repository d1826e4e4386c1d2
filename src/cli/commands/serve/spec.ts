import { defineCommand } from '../../args/command-spec.js';
import { parseServeArgs } from './serve-args.js';

export const serveSpec = defineCommand({
  name: 'serve',
  summary: 'sessions over HTTP for editors, scripts and other machines (token, SSE): docs/server.md',
  usage: ['serve [--host HOST] [--port PORT] [--token-file FILE] [--allow-origin ORIGIN]'],
  details: [
    'Every route but /v1/health needs the bearer token: made on first start and printed once, kept in a 0600 file (default: the data folder\'s serve/token).',
    'A request carrying an Origin header (a web page\'s) is refused unless --allow-origin names that origin.',
    'The run settings (provider, model, permission mode, …) are each session\'s defaults; a session may name its own model, provider and mode.',
  ],
  flags: [
    { flag: 'host', value: 'HOST', help: 'the address to listen on (default 127.0.0.1; another needs a firewall or a proxy you trust: the token is the only lock)' },
    { flag: 'port', value: 'PORT', help: 'the port (default 4317; 0 picks a free one, printed)' },
    { flag: 'token-file', value: 'FILE', help: 'where the bearer token is kept (made, 0600, when missing)' },
    { flag: 'allow-origin', value: 'ORIGIN', multiple: true, help: 'a web origin (https://app.example) whose pages may call the server; repeatable' },
    { flag: 'max-sessions', value: 'N', help: 'sessions open at once (default 64); past it: 503 with Retry-After' },
    { flag: 'idle-exit', value: 'SECONDS', help: 'stop once no turn has run and no stream been open for this long (how --bg starts it)' },
    { flag: 'max-streams', value: 'N', help: 'event streams open at once (default 256); past it: 503 with Retry-After' },
  ],
  parse: parseServeArgs,
  run: async (args, signal) => (await import('./serve-command.js')).serveCommand(args, signal),
});
