// Marks dist/cjs of the package in the current directory as CommonJS: the package itself is
// "type": "module", so without this Node would load the second, CommonJS build as ESM. Run by the
// build scripts of packages/protocol and packages/sdk after `tsc -p tsconfig.cjs.json`.
import { writeFileSync } from 'node:fs';

writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');
