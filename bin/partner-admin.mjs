#!/usr/bin/env node
// Runs the operator CLI from source (no build step): tsx compiles src/cli/partner-admin.ts on the fly.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/partner-admin.ts');
