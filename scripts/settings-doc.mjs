#!/usr/bin/env node
// Writes docs/settings.md from the settings table (src/cli/settings/settings.ts), as built in dist/: run `npm run build` first.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { settingsMarkdown } = await import(join(root, 'dist', 'cli', 'settings-doc.js'));
const target = join(root, 'docs', 'settings.md');
writeFileSync(target, settingsMarkdown());
console.log(`wrote ${target}`);
