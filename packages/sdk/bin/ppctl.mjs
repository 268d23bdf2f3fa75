#!/usr/bin/env node
// Runs the ppctl CLI from source (no build step): tsx compiles src/cli/main.ts on the fly.
// The published package runs the compiled dist/cli/main.js instead.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
