import { closestName, didYouMean } from '../contracts/did-you-mean.js';

/** "unknown option --modle (did you mean --model?)": the message for a flag we do not have. */
export function unknownOptionMessage(typed: string, known: readonly string[]): string {
  return `unknown option ${typed}${didYouMean(typed.replace(/^-+/, '').replace(/=.*$/, ''), known, (name) => `--${name}`)}`;
}

/** The option the user most likely meant (src/contracts/did-you-mean.ts decides, for flags, config keys and providers alike). */
export function closestOption(name: string, known: readonly string[]): string | undefined {
  return closestName(name, known);
}
