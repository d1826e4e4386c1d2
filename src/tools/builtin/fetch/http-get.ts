import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPrivateAddress, PrivateAddressError, publicOnlyLookup } from './private-address.js';

export interface GetOptions {
  signal: AbortSignal;
  /** Reach the host even when it is (or resolves to) a private address. */
  allowPrivate: boolean;
}

/** One GET without following redirects; private addresses are refused unless allowed. */
export function httpGet(url: URL, options: GetOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) return Promise.reject(new PrivateAddressError(url.hostname, host));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'GET',
      signal: options.signal,
      headers: { 'user-agent': 'vibe-agent', accept: '*/*' },
      ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
    });
    sent.once('response', resolve);
    sent.once('error', reject);
    sent.end();
  });
}

export interface CappedBody {
  text: string;
  /** The page held more than the cap; the rest was never read. */
  cut: boolean;
  bytes: number;
}

/** Reads at most `maxBytes` of the body and then closes the connection: an endless page costs only the cap. */
export async function readCapped(response: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let bytes = 0;
  let cut = false;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    const room = maxBytes - bytes;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    text += decoder.decode(part, { stream: true });
    bytes += part.length;
    if (chunk.length > room) {
      cut = true;
      break;
    }
  }
  response.destroy();
  return { text: text + decoder.decode(), cut, bytes };
}
