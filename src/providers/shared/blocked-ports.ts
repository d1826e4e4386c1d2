/**
 * The Fetch standard's "bad ports": Node's fetch (undici), and so every SDK we use, refuses to
 * connect to them with a bare "fetch failed", which looks like a network blip and gets retried.
 * Checked against Node 20's undici: each of these fails with "bad port", none other does.
 */
const BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723,
  2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** The port of an http(s) URL when fetch refuses to use it; undefined for any usable URL. */
export function blockedPortOf(url: URL): number | undefined {
  // An explicit default port (":80", ":443") is dropped by URL, and neither is blocked.
  const port = Number(url.port);
  return url.port !== '' && BLOCKED_PORTS.has(port) ? port : undefined;
}

/** What to tell the user about a blocked port (`port` when known). */
export function blockedPortAdvice(port?: number): string {
  const which = port !== undefined ? `port ${port} (a "bad port" in the Fetch standard)` : 'this port (one of the Fetch standard\'s "bad ports", such as 6000, 6667 or 10080)';
  return `Node's fetch refuses to connect to ${which}, so no request can reach a server there: run the server on another port (e.g. 8000 or 8080) and change the base URL.`;
}
