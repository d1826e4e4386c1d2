/**
 * Vitest setup: zod loaded, as a program importing the library has it (src/index.ts hands it to the
 * built-in tools, which build their schemas at first need). The CLI's path without zod is tested
 * through the built bundle (test/start-up-load.test.ts, test/tool-validators.test.ts).
 */
import { loadZod } from '../../src/tools/zod-loader.js';

await loadZod();
