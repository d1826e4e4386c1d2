import { GoogleProvider } from '../../src/providers/google/google-provider.js';
import { startGeminiServer } from '../support/gemini-server.js';
import type { ProtocolUnderTest } from './protocol.js';

/** Gemini's REST protocol through @google/genai, against the strict Gemini test server. */
export const google: ProtocolUnderTest = {
  name: 'google',
  // The neutral steps are Gemini server steps as they are (`cut` counts SSE frames).
  start: (script) => startGeminiServer(script),
  provider: (url) => new GoogleProvider({ apiKey: 'conformance-key', baseURL: url }),
};
