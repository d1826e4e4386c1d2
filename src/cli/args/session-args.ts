import { SESSION_ID_SHAPE } from '../../session/paths.js';

/**
 * `--resume` takes an optional value, which node:util parseArgs cannot express. The word after
 * it is the id when it looks like one (8 digits first, e.g. `20261202` or `20261202-2021`);
 * otherwise `--resume` stands alone and the word stays a prompt. `--resume=ID` always works.
 */
export function normalizeResumeFlag(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      out.push(...argv.slice(i));
      break;
    }
    if (word !== '--resume') {
      out.push(word);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && SESSION_ID_SHAPE.test(next)) {
      out.push(`--resume=${next}`);
      i++;
    } else {
      out.push('--resume=');
    }
  }
  return out;
}
