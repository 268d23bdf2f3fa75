#!/usr/bin/env node
// The operator CLI, compiled to dist/ by the install (`npm ci` runs the build).
await import('../dist/cli/partner-admin.js');
