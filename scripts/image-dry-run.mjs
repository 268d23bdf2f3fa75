// Replays the Dockerfile without a Docker daemon: each stage's WORKDIR, ENV, COPY and RUN run in a
// temporary directory standing for the stage's filesystem (context filtered by .dockerignore),
// then the runtime stage's CMD is started and must answer /readyz, pass the HEALTHCHECK, and stop
// cleanly on SIGTERM, after which the HEALTHCHECK must fail. The base image must be pinned by digest
// and name the Node.js line this replay runs on. USER and --chown are recorded but not applied (no
// root here). Prints the install sizes.
// Usage: node scripts/image-dry-run.mjs [--keep]
import { execSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'image-dry-run-'));
const ignored = readFileSync('.dockerignore', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'))
  .map(
    (p) =>
      new RegExp(
        `^${p
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replace(/\*\*\//g, '(?:.*/)?')
          .replace(/\*/g, '[^/]*')}(?:/|$)`,
      ),
  );

const stages = new Map();
const argValues = new Map();
let stage;
let healthcheck;
const unsupported = [];
const lines = readFileSync('Dockerfile', 'utf8')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const at = (path) => join(stage.fs, path.startsWith('/') ? path : join(stage.workdir, path));

for (const line of lines) {
  const [instruction, ...rest] = line.split(/\s+/);
  const args = rest.join(' ');
  switch (instruction) {
    case 'ARG': {
      const [, name, value] = /^(\w+)=(\S+)$/.exec(args) ?? [];
      argValues.set(name, value);
      break;
    }
    case 'FROM': {
      const [ref, name] = args
        .replace(/\$\{(\w+)\}/g, (_, k) => argValues.get(k) ?? '')
        .split(/\s+AS\s+/i);
      checkBaseImage(ref);
      stage = { name, fs: join(work, name), workdir: '/', env: {}, user: 'root', cmd: undefined };
      mkdirSync(stage.fs, { recursive: true });
      stages.set(name, stage);
      break;
    }
    case 'WORKDIR':
      stage.workdir = args;
      mkdirSync(at(args), { recursive: true });
      break;
    case 'ENV':
      for (const [, k, v] of args.matchAll(/(\w+)=(\S+)/g)) stage.env[k] = v;
      break;
    case 'COPY': {
      const parts = args.split(/\s+/).filter((a) => !a.startsWith('--chown='));
      const from = parts[0].startsWith('--from=') ? stages.get(parts.shift().slice(7)) : undefined;
      const dest = parts.pop();
      // Several sources (or a destination ending in /) go into the destination directory, by name.
      const into = parts.length > 1 || dest.endsWith('/');
      for (const src of parts) {
        const to = into && src !== '.' ? join(at(dest), basename(src)) : at(dest);
        if (from) cpSync(join(from.fs, src), to, { recursive: true, verbatimSymlinks: true });
        else
          cpSync(join(root, src), to, {
            recursive: true,
            filter: (p) => !ignored.some((re) => re.test(relative(root, p))),
          });
      }
      break;
    }
    case 'RUN':
      console.log(`[${stage.name}] RUN ${args}`);
      execSync(args, {
        cwd: at(stage.workdir),
        stdio: 'inherit',
        env: { ...process.env, ...stage.env },
      });
      break;
    case 'USER':
      stage.user = args;
      break;
    case 'CMD':
      stage.cmd = JSON.parse(args);
      break;
    case 'HEALTHCHECK':
      healthcheck = JSON.parse(/\bCMD\s+(\[.*\])$/.exec(args)[1]);
      break;
    case 'EXPOSE':
    case 'STOPSIGNAL':
      break;
    default:
      unsupported.push(line);
  }
}
if (unsupported.length) throw new Error(`the dry run does not know: ${unsupported.join('; ')}`);
if (!healthcheck) throw new Error('the Dockerfile has no HEALTHCHECK');

/** A base image pinned by digest, of the Node.js line this replay runs with (the image's node is not at hand). */
function checkBaseImage(ref) {
  const m = /^node:(\d+)[\w.-]*@sha256:[0-9a-f]{64}$/.exec(ref);
  if (!m) throw new Error(`FROM ${ref}: the base image must be node:<line>-…@sha256:<digest>`);
  const local = process.versions.node.split('.')[0];
  if (m[1] !== local)
    throw new Error(
      `FROM ${ref} is Node.js ${m[1]}, but this replay runs Node.js ${process.versions.node}: run it with Node.js ${m[1]}`,
    );
}

const size = (path) => execSync(`du -sm ${path}`).toString().split('\t')[0];
console.log(
  `runtime stage (user ${stage.user}): ${size(stage.fs)} MB of application, of which node_modules ${size(at('node_modules'))} MB`,
);

const port = await new Promise((resolve) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = srv.address();
    srv.close(() => resolve(free));
  });
});
const [command, ...cmdArgs] = stage.cmd;
const env = {
  PATH: process.env.PATH,
  ...stage.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
};
const child = spawn(command, cmdArgs, { cwd: at(stage.workdir), env, stdio: 'inherit' });
/** The HEALTHCHECK's exit code, run as Docker would: in the container's directory, with its environment. */
const health = () =>
  spawnSync(healthcheck[0], healthcheck.slice(1), { cwd: at(stage.workdir), env, timeout: 3000 })
    .status;
const exited = new Promise((resolve) => child.on('exit', resolve));
const started = Date.now();
let ready = false;
while (!ready && child.exitCode === null && Date.now() - started < 120_000) {
  ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
  if (!ready) await new Promise((r) => setTimeout(r, 200));
}
console.log(
  ready
    ? `CMD ${stage.cmd.join(' ')}: ready in ${Date.now() - started} ms`
    : 'CMD never became ready',
);
// A page of each web app and a static file: a template or asset directory the image leaves out
// answers 500 here, not on a courier's phone.
const PAGES = ['/', '/sign-in', '/console/sign-in', '/courier/sign-in', '/docs', '/track/nope'];
const broken = [];
for (const path of ready ? PAGES : []) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`).catch((err) => ({
    status: err.message,
  }));
  if (res.status !== 200 && !(path.startsWith('/track/') && res.status === 404))
    broken.push(`${path}: ${res.status}`);
}
console.log(
  broken.length ? `pages BROKEN: ${broken.join(', ')}` : `pages: ${PAGES.length} answered`,
);
const healthy = ready && health() === 0;
child.kill('SIGTERM');
const code = await exited;
const unhealthyWhenStopped = health() !== 0;
console.log(
  `HEALTHCHECK: ${healthy ? 'healthy' : 'UNHEALTHY'} while serving, ${unhealthyWhenStopped ? 'unhealthy' : 'STILL HEALTHY'} once stopped`,
);
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
if (!ready || !healthy || !unhealthyWhenStopped || code !== 0 || broken.length) {
  console.error(
    `image dry run failed (ready: ${ready}, pages broken: ${broken.length}, healthy: ${healthy}, unhealthy once stopped: ${unhealthyWhenStopped}, exit code: ${code})`,
  );
  process.exit(1);
}
