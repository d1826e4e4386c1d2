import { closestName, didYouMean, editDistance } from '../../contracts/did-you-mean.js';

/** "unknown option --modle (did you mean --model?)": the message for a flag we do not have. */
export function unknownOptionMessage(typed: string, known: readonly string[]): string {
  return `unknown option ${typed}${didYouMean(typed.replace(/^-+/, '').replace(/=.*$/, ''), known, (name) => `--${name}`)}`;
}

/** The option the user most likely meant (src/contracts/did-you-mean.ts decides, for flags, config keys and providers alike). */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  return closestName(name, known);
}

/**
 * The command (or command word) a lone word most likely meant: one it begins (three letters at
 * least), or one within an edit (two for names of seven letters or more: `deploy` is a task, not a
 * mistyped `replay`); undefined when none is close.
 * Stricter than closestName: a lone word that is not a command is sent as a task, so only a near miss is refused.
 */
export function closestCommand(word: string, names: readonly string[]): string | undefined {
  if (word.length >= 3) {
    const extending = names.filter((name) => name.startsWith(word.toLowerCase()));
    if (extending.length === 1) return extending[0];
  }
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(word.toLowerCase(), name);
    if (distance <= (name.length >= 7 ? 2 : 1) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
