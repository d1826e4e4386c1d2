/**
 * `mcp get` masks a key wherever it stands in a value (issue 34, class 8): `--api-key=sk-live-…`,
 * the argument after `--token`, a key inside a URL's path or its password, a header or variable.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskedUrl } from '../src/cli/commands/mcp/mcp-get-command.js';
import { isSecretOption, maskArgument, maskValue } from '../src/cli/commands/mcp/mcp-secret-values.js';

const alnum = fc.stringMatching(/^[A-Za-z0-9]{20,40}$/).filter((text) => /\d/.test(text) && /[A-Za-z]/.test(text));
const key = fc.oneof(
  alnum.map((body) => `sk-live-${body}`),
  alnum.map((body) => `ghp_${body}`),
  alnum.map((body) => `AIza${body}`),
  alnum.map((body) => `xoxb-${body}`),
  alnum.map((body) => `${body}${body}`),
);

describe('mcp get masking', () => {
  it('property: a key is never shown, whatever option, URL or value holds it', () => {
    fc.assert(
      fc.property(key, fc.constantFrom('--api-key=', '--token=', 'api_key=', '--auth=', 'key:', '--header=Authorization: Bearer ', 'x'), (secret, prefix) => {
        expect(maskArgument(`${prefix}${secret}`)).not.toContain(secret);
      }),
    );
    fc.assert(
      fc.property(key, fc.constantFrom('--api-key', '--token', '-k', '--password', '--secret'), (secret, option) => {
        const shown = isSecretOption(option) ? maskArgument(secret, true) : maskArgument(secret);
        expect(shown).not.toContain(secret);
      }),
    );
    fc.assert(
      fc.property(key, fc.constantFrom((k: string) => `https://mcp.example.com/v1/${k}/sse`, (k: string) => `https://user:${k}@mcp.example.com/mcp`, (k: string) => `https://mcp.example.com/mcp?key=${k}`, (k: string) => `https://mcp.example.com/${k}`), (secret, url) => {
        expect(maskedUrl(url(secret))).not.toContain(secret);
      }),
    );
    fc.assert(
      fc.property(key, fc.constantFrom('X-Custom', 'Authorization', 'CONFIG', 'URL'), fc.constantFrom('', 'Bearer ', 'token=', 'https://h.example/'), (secret, name, prefix) => {
        expect(maskValue(name, `${prefix}${secret}`)).not.toContain(secret);
      }),
    );
  });

  it('what is not a secret is shown as given', () => {
    expect(maskArgument('--port=8080')).toBe('--port=8080');
    expect(maskArgument('@modelcontextprotocol/server-everything')).toBe('@modelcontextprotocol/server-everything');
    expect(maskArgument('--api-key=${MY_KEY}')).toBe('--api-key=${MY_KEY}');
    expect(maskedUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
    expect(maskValue('REGION', 'eu-west-1')).toBe('eu-west-1');
  });
});
