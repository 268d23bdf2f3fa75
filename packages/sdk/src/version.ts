// Written from package.json by scripts/write-version.mjs (npm run build, npm version).
export const VERSION = '0.1.0';
