/** A command line the CLI cannot act on: reported in one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
