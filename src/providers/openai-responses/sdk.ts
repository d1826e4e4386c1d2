import { lazyModule } from '../../contracts/lazy-module.js';

/**
 * The SDK's `responses` resource, imported by the first Responses request only. The CLI bundle
 * builds the openai client with `chat` alone (scripts/bundle-cli.mjs), so the resource is made
 * here on that client rather than read from `client.responses`.
 */
export const responsesResource = lazyModule(() => import('openai/resources/responses/responses'));
