import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { visibleText } from '../../display/visible-text.js';
import { findOnPath } from '../../../contracts/find-on-path.js';

/**
 * Tells the user a background session ended: on their terminal (`stream`, when it is one) a bell and an
 * OSC 9 notification (shown by iTerm2, Windows Terminal, kitty, WezTerm…; ignored elsewhere), and a
 * desktop notification through notify-send where it is installed.
 */
export function notifyEnd(title: string, body: string, stream: NodeJS.WriteStream | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  const line = visibleText(`${title}: ${body}`).replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (stream?.isTTY) stream.write(`\u0007\u001b]9;${line}\u0007`);
  return new Promise((resolve) => {
    const child = spawn('notify-send', ['--app-name=vibe-agent', visibleText(title), visibleText(body)], { stdio: 'ignore', env });
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}

/**
 * Where the user can be told when the session's run ends: this terminal (bell and OSC 9) and the desktop
 * (notify-send). A detached `logs ID --wait` waits for the end and tells them; none without either.
 * Returns where, for the line that says so, or undefined when there is nowhere to tell.
 */
export function watchForEnd(id: string, env: NodeJS.ProcessEnv): string | undefined {
  const terminal = process.stderr.isTTY === true;
  const desktop = findOnPath('notify-send', env) !== undefined;
  if (!terminal && !desktop) return undefined;
  const main = process.argv[1] ?? fileURLToPath(import.meta.url);
  spawn(process.execPath, [main, 'logs', id, '--wait'], { detached: true, stdio: ['ignore', 'ignore', terminal ? 2 : 'ignore'], env }).unref();
  return [terminal ? 'on this terminal' : '', desktop ? 'on the desktop' : ''].filter(Boolean).join(' and ');
}
