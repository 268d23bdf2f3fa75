/**
 * `npm run demo`: the server as a local playground. Its settings are laid under the environment
 * (a variable already set wins; ./.env, read after, fills only what is still unset), then the
 * server starts as `npm start` does. The playground's switches are refused unless PUBLIC_BASE_URL
 * is this machine (config.ts).
 */
const PLAYGROUND: Record<string, string> = {
  DEMO: 'on',
  SANDBOX_PAYMENTS_FOR_PRODUCTION: 'on',
  SANDBOX_COURIER_FOR_PRODUCTION: 'on',
  // A delivery goes through in about half a minute rather than three.
  SANDBOX_COURIER_STEP_SECONDS: '5',
  // Its own data directory: the playground's sandbox money never mixes with a development database.
  DATA_DIR: 'data/demo',
  // Served to this machine only.
  HOST: '127.0.0.1',
};
for (const [name, value] of Object.entries(PLAYGROUND)) process.env[name] ??= value;
await import('./server.ts');
