import { lazyModule } from '../../contracts/lazy-module.js';

/** The Anthropic SDK, imported by the first request. */
export const anthropicSdk = lazyModule(() => import('@anthropic-ai/sdk'));
