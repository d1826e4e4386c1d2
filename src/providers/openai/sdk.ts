import { lazyModule } from '../../contracts/lazy-module.js';

/** The OpenAI SDK, imported by the first request. */
export const openaiSdk = lazyModule(() => import('openai'));
