import { defineCommand } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

const oneId = (words: string[], usage: string): string => {
  if (words.length !== 1 || !words[0]) throw new UsageError(`Usage: vibe-agent ${usage}`);
  return words[0];
};

export const agentsSpec = defineCommand({
  name: 'agents',
  summary: 'background sessions (--bg): state, worktree, cost, last event',
  usage: ['agents [--json] [--prune]', 'agents --page [--no-open]'],
  flags: [
    { flag: 'prune', help: 'remove the worktrees of sessions not running whose work is all saved (committed on a branch, or landed); says what it keeps and why' },
    { flag: 'page', help: 'open the live page of the sessions in the browser (the server\'s address with its token after #; starts the server when none runs)' },
    { flag: 'no-open', help: 'with --page: print the address without opening a browser' },
  ],
  parse: ({ flags }) => ({ agents: { prune: flags.prune === true, page: flags.page === true, noOpen: flags['no-open'] === true } }),
  run: async (args) => (await import('./agents-command.js')).agentsCommand(args),
});

export const logsSpec = defineCommand({
  name: 'logs',
  summary: 'a background session\'s events (-f: follow)',
  usage: ['logs ID [-f | --wait]'],
  details: ['Once the session\'s run has ended, its report (files changed, commands run and their exit codes, cost, how to land it) follows on stderr.'],
  maxWords: 1,
  flags: [
    { flag: 'follow', short: 'f', help: 'then follow live events until the running turn stops' },
    { flag: 'wait', help: 'print nothing until the running turn stops, then its report, a terminal bell/OSC 9 and a desktop notification (notify-send)' },
  ],
  parse: ({ words, flags }) => ({ logs: { id: oneId(words, 'logs ID [-f]'), follow: flags.follow === true, wait: flags.wait === true } }),
  run: async (args, signal) => (await import('./logs-command.js')).logsCommand(args, signal),
});

export const stopSpec = defineCommand({
  name: 'stop',
  summary: 'stop a background session (its worktree stays)',
  usage: ['stop ID'],
  maxWords: 1,
  flags: [],
  parse: ({ words }) => ({ stopId: oneId(words, 'stop ID') }),
  run: async (args) => (await import('./stop-command.js')).stopCommand(args),
});

export const landSpec = defineCommand({
  name: 'land',
  summary: 'check a background session\'s worktree, merge it into yours; rewind undoes it',
  usage: ['land ID [--check CMD]… [--no-check] [--yes | --only PATH… | --pr]'],
  details: [
    'Without --check the checks are the landChecks of your config or of the project\'s .vibe-agent/config.json (the project\'s run only once you approve them, as its hooks do); the land says which it runs and where they came from.',
    'On a terminal each hunk is shown and asked about; --yes lands all of it, --only the named files. Nothing is applied when the rebase conflicts, a check fails, or the change overlaps your uncommitted edits. Nothing is committed or staged in your checkout; vibe-agent rewind undoes the land.',
    '--pr pushes the rebased, checked branch to the checkout\'s remote and opens a pull request with gh (when gh is installed) instead.',
  ],
  maxWords: 1,
  flags: [
    { flag: 'check', value: 'CMD', multiple: true, help: 'a command run in the worktree after the rebase (sh -c); a non-zero exit lands nothing; repeatable; replaces the configured landChecks' },
    { flag: 'no-check', help: 'run no checks (not even the configured landChecks)' },
    { flag: 'only', value: 'PATH', multiple: true, help: 'land only this file\'s change (whole); repeatable' },
    { flag: 'pr', help: 'push the branch and open a pull request (gh) rather than merging into your checkout' },
  ],
  parse: ({ words, flags }) => {
    const list = (given: unknown) => (Array.isArray(given) ? given : typeof given === 'string' ? [given] : []).map(String);
    if (flags.pr === true && flags.only !== undefined) throw new UsageError('--pr pushes the whole branch; --only chooses files to merge here. Give one.');
    const noCheck = flags['no-check'] === true;
    if (noCheck && flags.check !== undefined) throw new UsageError('--check names checks to run and --no-check runs none. Give one.');
    return { land: { id: oneId(words, 'land ID [--check CMD]'), checks: list(flags.check), noCheck, only: list(flags.only), pr: flags.pr === true } };
  },
  run: async (args, signal) => (await import('./land-command.js')).landCommand(args, undefined, signal),
});

export const discardSpec = defineCommand({
  name: 'discard',
  summary: 'remove a background session\'s worktree and branch (says what would be lost, asks)',
  usage: ['discard ID [--yes]'],
  details: ['Lists every uncommitted file and every commit no other branch holds, then asks. Without a terminal it removes only with --yes.'],
  maxWords: 1,
  flags: [],
  parse: ({ words }) => ({ discardId: oneId(words, 'discard ID [--yes]') }),
  run: async (args) => (await import('./discard-command.js')).discardCommand(args),
});

export const approveSpec = defineCommand({
  name: 'approve',
  summary: 'answer a background session\'s waiting approval (shown whole; the first answer wins)',
  usage: ['approve ID [REQUEST] [--deny|--always]'],
  details: ['On a terminal each waiting question is shown (tool, summary, diff or command) and answered with y, n or a. Without one, name the REQUEST as vibe-agent agents shows it: it is allowed, or denied with --deny.'],
  maxWords: 2,
  flags: [
    { flag: 'deny', help: 'deny the named request' },
    { flag: 'always', help: 'allow the named request and what its "always" rule covers, for the rest of that session' },
  ],
  parse: ({ words, flags }) => {
    if (!words[0]) throw new UsageError('Usage: vibe-agent approve ID [REQUEST] [--deny|--always]');
    if (flags.deny === true && flags.always === true) throw new UsageError('--deny and --always contradict each other; give one.');
    if ((flags.deny === true || flags.always === true) && !words[1]) throw new UsageError('--deny and --always answer one named request: vibe-agent approve ID REQUEST --deny (vibe-agent agents shows the request ids)');
    const decision = flags.deny === true ? 'deny' : flags.always === true ? 'always' : 'allow';
    return { approve: { id: words[0], ...(words[1] ? { requestId: words[1] } : {}), decision } as const };
  },
  run: async (args) => (await import('./approve-command.js')).approveCommand(args),
});
