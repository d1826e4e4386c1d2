import { lazyModule } from '../../contracts/lazy-module.js';

/** The Gemini SDK, imported by the first request. */
export const googleSdk = lazyModule(() => import('@google/genai'));
