import { spawn } from 'node:child_process';

/**
 * Asks the desktop to open a URL (xdg-open, open, or start). Best effort: with no such program,
 * or no display, nothing happens and the caller has printed the URL anyway.
 */
export function openBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [command, args] = platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the URL is on the terminal.
  }
}
