import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, embeddedPass } from '../../helpers/harness.ts';
import { freePort, seedDataDir, spawnServer, type ServerProcess } from '../../helpers/process.ts';

// What a person sees when the server starts: on a terminal (or LOG_FORMAT=pretty) a short banner and
// readable log lines; JSON lines otherwise (what log collectors, and the other tests, read).

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * A server on an embedded database of its own, migrated but empty (the first screen is the subject;
 * a first start's migrations are test/accounts/journey/quickstart.test.ts's), whose quick start
 * writes its credentials beside it.
 */
async function start(
  env: Record<string, string>,
  opts: { terminal?: boolean } = {},
): Promise<{ server: ServerProcess; dir: string; port: string }> {
  const dir = seedDataDir(mkdtempSync(join(tmpdir(), 'pp-screen-')));
  dirs.push(dir);
  const port = String(await freePort());
  const all = {
    SANDBOX_QUICKSTART: 'on',
    DATA_DIR: dir,
    ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    PORT: port,
    PUBLIC_BASE_URL: `http://localhost:${port}`,
    ...env,
  };
  const node = `${process.execPath} dist/server.js`;
  // util-linux's script(1) runs the server on a pseudo-terminal, as a person's shell would.
  const command = opts.terminal ? ['script', '-qec', node, '/dev/null'] : undefined;
  const server = await spawnServer(all, { command, detached: true });
  // The banner follows the ready line; a terminal's output arrives a little after the port answers.
  await expect
    .poll(() => server.output().includes('partner platform ready'), { timeout: 10_000 })
    .toBe(true);
  return { server, dir, port };
}

async function stop(server: ServerProcess): Promise<string> {
  process.kill(-server.child.pid!, 'SIGTERM');
  await server.exited;
  return server.output().replace(/\r\n/g, '\n');
}

const ESC = String.fromCharCode(27);
const plain = (text: string) =>
  text
    .split(ESC)
    .map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, '')))
    .join('');

function expectBanner(out: string, dir: string, port: string): void {
  const text = plain(out);
  expect(text).toContain('Partner Platform is ready');
  for (const [label, url] of [
    ['Dashboard', '/'],
    ['API docs', '/docs'],
    ['Console', '/console'],
    ['Dev mail', '/dev/mail'],
    ['Dev SMS', '/dev/sms'],
  ]) {
    expect(text).toMatch(new RegExp(`^  ${label} +http://localhost:${port}${url}`, 'm'));
  }
  expect(text).toMatch(
    new RegExp(
      `^  Credentials +${join(dir, 'sandbox-credentials.json')}  \\(readable only by you\\)$`,
      'm',
    ),
  );
  const creds = JSON.parse(readFileSync(join(dir, 'sandbox-credentials.json'), 'utf8'));
  expect(out).not.toContain(creds.signing_secret);
  expect(out).not.toContain(creds.api_key);
  // Readable lines, the quick start's and the ready line at info: nothing here is wrong.
  expect(text).toMatch(
    /^\d\d:\d\d:\d\d INFO {2}sandbox quick start: a demo partner with a staging key was created/m,
  );
  expect(text).toMatch(
    /^\d\d:\d\d:\d\d INFO {2}partner platform ready {2}services=\["delivery","safe-catalog"\]/m,
  );
  expect(text).not.toMatch(/^\{"level"/m);
}

describe.runIf(embeddedPass)('the first screen', () => {
  it('is JSON lines when standard output is not a terminal, the ready and quick-start lines at info, with the links as fields', async () => {
    const { server, port } = await start({});
    const out = await stop(server);
    const lines = out.split('\n').filter(Boolean);
    const records = lines.map(
      (l) => JSON.parse(l) as { level: number; msg: string; dashboard?: string; docs?: string },
    );
    expect(records.find((r) => r.msg === 'partner platform ready')).toMatchObject({
      level: 30,
      dashboard: `http://localhost:${port}/`,
      docs: `http://localhost:${port}/docs`,
    });
    expect(records.find((r) => r.msg.startsWith('sandbox quick start'))?.level).toBe(30);
    expect(out).not.toContain('Partner Platform is ready');
  }, 60_000);

  it('is a banner and readable lines with LOG_FORMAT=pretty', async () => {
    const { server, dir, port } = await start({ LOG_FORMAT: 'pretty' });
    const out = await stop(server);
    expectBanner(out, dir, port);
    // Nothing but a terminal is coloured.
    expect(out).not.toContain('\x1b[');
  }, 60_000);

  it('is a banner and coloured readable lines on a terminal, and JSON there with LOG_FORMAT=json', async () => {
    const tty = await start({}, { terminal: true });
    const out = await stop(tty.server);
    expectBanner(out, tty.dir, tty.port);
    expect(out).toContain('\x1b[32mINFO \x1b[0m');

    const json = await start({ LOG_FORMAT: 'json' }, { terminal: true });
    // script(1) says so itself when the terminal goes: that line is not the server's.
    const lines = (await stop(json.server))
      .split('\n')
      .filter((l) => l && !l.startsWith('Session terminated'));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);
});
