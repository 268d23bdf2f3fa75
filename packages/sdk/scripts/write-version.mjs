// Writes src/version.ts from package.json, so that the SDK knows its own version in its ESM and
// CommonJS builds alike, without importing JSON. Run by `build` and by `npm version`; a unit test
// holds the committed file to package.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const file = new URL('../src/version.ts', import.meta.url);
const text = `// Written from package.json by scripts/write-version.mjs (npm run build, npm version).\nexport const VERSION = '${version}';\n`;
if (!existsSync(file) || readFileSync(file, 'utf8') !== text) writeFileSync(file, text);
