/**
 * Deny rules are matched against each segment of a command in several spellings, so the common
 * ways of writing the same command do not slip past `shell(rm *)`: quotes and backslashes
 * (`"rm"`, `r\m`), a path (`/bin/rm`), variable assignments (`X=1 rm`), wrappers (`command rm`,
 * `sudo rm`, `env rm`, `xargs rm`, `sh -c "rm …"`) and `find -exec rm`. This is best-effort: a
 * shell can always build a command the rule cannot see (`$'\x72m'`, `eval $(…)`, a script).
 */

import { SHELLS, WRAPPERS } from './command-wrappers.js';

const EXEC_FLAGS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** A wrapper's option or argument such as `-n`, `10` or `5s`. */
const WRAPPER_ARGUMENT = /^(-.*|\d+(\.\d+)?[smhd]?)$/;
/** Wrapper options whose value is the next word (`sudo -u root`, `env -u NAME`, `xargs -I {}`, `timeout -s KILL`). */
const VALUE_OPTIONS = new Set(['-u', '-g', '-s', '-I', '-d', '-a', '-E', '-k', '-C', '-D', '-S']);

function unquote(segment: string): string {
  return segment
    .replace(/\$\{IFS\}|\$IFS\b/g, ' ')
    .replace(/\\(.)/gs, '$1')
    .replace(/['"]/g, '');
}

function stripLeading(words: string[], add: (words: string[]) => void): string[] {
  let rest = words;
  for (let guard = 0; guard < 32 && rest.length > 0; guard++) {
    const word = rest[0]!;
    const slash = word.lastIndexOf('/');
    if (ASSIGNMENT.test(word)) {
      rest = rest.slice(1);
    } else if (slash >= 0 && slash < word.length - 1) {
      rest = [word.slice(slash + 1), ...rest.slice(1)];
    } else if (WRAPPERS.has(word)) {
      rest = rest.slice(1);
      // A wrapper's own arguments vary (`flock /tmp/l`, `taskset 0x3`, `chrt -r 10`), so every tail
      // is a form too: a deny rule then sees the command wherever it starts.
      for (let start = 1; start < rest.length; start++) addTail(rest.slice(start), add);
      while (rest.length > 0 && WRAPPER_ARGUMENT.test(rest[0]!)) rest = rest.slice(VALUE_OPTIONS.has(rest[0]!) ? 2 : 1);
    } else if (SHELLS.has(word) && rest.includes('-c')) {
      rest = rest.slice(rest.indexOf('-c') + 1);
    } else {
      break;
    }
    add(rest);
  }
  return rest;
}

function addTail(tail: string[], add: (words: string[]) => void): void {
  add(tail);
  const first = tail[0]!;
  const slash = first.lastIndexOf('/');
  if (slash >= 0 && slash < first.length - 1) add([first.slice(slash + 1), ...tail.slice(1)]);
}

/** The spellings of one command segment that a deny rule is tested against. */
export function commandForms(segment: string): string[] {
  const forms = new Set<string>();
  const add = (words: string[]) => {
    if (words.length > 0) forms.add(words.join(' '));
  };
  const words = unquote(segment).split(/\s+/).filter((word) => word !== '');
  add(words);
  const command = stripLeading(words, add);
  // find … -exec rm {} ; — the command after -exec is run too.
  command.forEach((word, index) => {
    if (!EXEC_FLAGS.has(word)) return;
    const executed = command.slice(index + 1);
    add(executed);
    stripLeading(executed, add);
  });
  return [segment.trim(), ...forms];
}
