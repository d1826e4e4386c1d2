import { defineTool } from '../define-tool.js';

export const currentTimeTool = defineTool({
  name: 'current_time',
  description: 'Get the current date and time (ISO 8601 with UTC offset). Optional IANA timezone, e.g. "Asia/Shanghai"; default is the local zone.',
  parameters: (z) => z.object({ timezone: z.string().optional().describe('IANA time zone name') }),
  readOnly: true,
  timeoutMs: 5_000,
  async execute({ timezone }) {
    const zone = timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
    try {
      return `${isoInZone(new Date(), zone)} (${zone})`;
    } catch {
      return { output: `Unknown time zone "${timezone}". Use an IANA name such as "Europe/London" or "America/New_York".`, isError: true };
    }
  },
});

/** ISO 8601 in the given zone with its offset, e.g. 2026-12-02T20:57:51+08:00. */
export function isoInZone(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMinutes = Math.round((local - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}
