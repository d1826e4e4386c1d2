import { anthropic } from './anthropic.js';
import { google } from './google.js';
import { openai } from './openai.js';
import { responses } from './responses.js';
import type { ProtocolUnderTest } from './protocol.js';

/** Every wire protocol the conformance suite runs over; one line per protocol. */
export const PROTOCOLS: ProtocolUnderTest[] = [
  openai,
  anthropic,
  google,
  responses,
];
