// Replays the Dockerfile without a Docker daemon: each stage's WORKDIR, ENV, COPY and RUN run in a
// temporary directory standing for the stage's filesystem (context filtered by .dockerignore),
// then the runtime stage's CMD is started and must answer /readyz and stop cleanly on SIGTERM.
// USER and --chown are recorded but not applied (no root here). Prints the install sizes.
// Usage: node scripts/image-dry-run.mjs [--keep]
import { execSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'image-dry-run-'));
const ignored = readFileSync('.dockerignore', 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'))
  .map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}(?:/|$)`));

const stages = new Map();
let stage;
const unsupported = [];
const lines = readFileSync('Dockerfile', 'utf8').replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const at = (path) => join(stage.fs, path.startsWith('/') ? path : join(stage.workdir, path));

for (const line of lines) {
  const [instruction, ...rest] = line.split(/\s+/);
  const args = rest.join(' ');
  switch (instruction) {
    case 'FROM': {
      const [, name] = args.split(/\s+AS\s+/i);
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
      const [src, dest] = parts;
      if (from) cpSync(join(from.fs, src), at(dest), { recursive: true, verbatimSymlinks: true });
      else cpSync(join(root, src), at(dest), { recursive: true, filter: (p) => !ignored.some((re) => re.test(relative(root, p))) });
      break;
    }
    case 'RUN':
      console.log(`[${stage.name}] RUN ${args}`);
      execSync(args, { cwd: at(stage.workdir), stdio: 'inherit', env: { ...process.env, ...stage.env } });
      break;
    case 'USER':
      stage.user = args;
      break;
    case 'CMD':
      stage.cmd = JSON.parse(args);
      break;
    case 'EXPOSE':
    case 'STOPSIGNAL':
      break;
    default:
      unsupported.push(line);
  }
}
if (unsupported.length) throw new Error(`the dry run does not know: ${unsupported.join('; ')}`);

const size = (path) => execSync(`du -sm ${path}`).toString().split('\t')[0];
console.log(`runtime stage (user ${stage.user}): ${size(stage.fs)} MB of application, of which node_modules ${size(at('node_modules'))} MB`);

const port = await new Promise((resolve) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = srv.address();
    srv.close(() => resolve(free));
  });
});
const [command, ...args] = stage.cmd;
const child = spawn(command, args, { cwd: at(stage.workdir), env: { PATH: process.env.PATH, ...stage.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, stdio: 'inherit' });
const exited = new Promise((resolve) => child.on('exit', resolve));
const started = Date.now();
let ready = false;
while (!ready && child.exitCode === null && Date.now() - started < 120_000) {
  ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
  if (!ready) await new Promise((r) => setTimeout(r, 200));
}
console.log(ready ? `CMD ${stage.cmd.join(' ')}: ready in ${Date.now() - started} ms` : 'CMD never became ready');
child.kill('SIGTERM');
const code = await exited;
if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true });
else console.log(`kept ${work}`);
if (!ready || code !== 0) {
  console.error(`image dry run failed (ready: ${ready}, exit code: ${code})`);
  process.exit(1);
}
