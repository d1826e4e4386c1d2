#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { safeStdout } from './display/safe-output.js';
import { apiKeyArguments, holdSecretVariables } from '../secrets/held-secrets.js';

// `vibe-agent --version` and `--help` answer before the rest of the CLI is loaded: they should cost what bare Node costs.
const packageVersion = (): string => (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  safeStdout.write(`vibe-agent ${packageVersion()}\n`);
} else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
  // help.txt is helpText() written at build time (scripts/bundle-cli.mjs); test/cli-review.test.ts checks they agree.
  safeStdout.write(readFileSync(new URL('./help.txt', import.meta.url), 'utf8'));
} else {
  // Before anything can start a child: the user's keys leave process.env and the /proc view of it (see held-secrets.ts).
  holdSecretVariables(process.env, apiKeyArguments(argv));
  const { runCli } = await import('./cli.js');
  runCli(argv, packageVersion);
}
