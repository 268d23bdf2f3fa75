/**
 * The signed health floor (floor.ts) and the bare no-op in a process of their own, started for the
 * floor check and stopped after it, so the nonces it records never weigh on the bare server the
 * measures use. Environment: PORT, HOST; FLOOR_API_KEY and FLOOR_SIGNING_SECRET, the key it accepts.
 */
import Fastify from 'fastify';
import { registerFloor } from './floor.ts';

const apiKey = process.env.FLOOR_API_KEY;
const signingSecret = process.env.FLOOR_SIGNING_SECRET;
if (!apiKey || !signingSecret)
  throw new Error('FLOOR_API_KEY and FLOOR_SIGNING_SECRET are required');
const app = Fastify({ logger: false });
app.get('/noop', async () => ({ status: 'ok' }));
registerFloor(app, { apiKey, signingSecret });
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
