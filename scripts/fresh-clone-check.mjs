// What a fresh clone of HEAD does when installed the wrong way (CI runs this once per pass):
// - `npm ci --omit=dev` stops in its prepare step with the one line that names the documented
//   production install, instead of failing on a missing build tool;
// - on a Node.js older than 22 (OLD_NODE, by default the machine's /usr/bin/node), npm refuses to
//   install anything (engine-strict); skipped with a notice when there is no such Node.
// The supported installs are proved elsewhere: `npm ci` by CI itself, `npm ci && npm prune
// --omit=dev` by the image dry run. Usage: node scripts/fresh-clone-check.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const work = mkdtempSync(join(tmpdir(), 'fresh-clone-'));
const clone = join(work, 'repo');
const failures = [];

/** Runs a command in the clone; answers its exit code, output and seconds taken. */
function run(command, args) {
  const started = Date.now();
  const r = spawnSync(command, args, { cwd: clone, encoding: 'utf8', timeout: 300_000 });
  return {
    status: r.status,
    output: `${r.stdout}${r.stderr}`,
    seconds: ((Date.now() - started) / 1000).toFixed(1),
  };
}

function expectFailure(what, r, line) {
  const ok = r.status !== 0 && r.status !== null && r.output.includes(line);
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what} (exit ${r.status}, ${r.seconds} s)`);
  if (!ok) failures.push(`${what}:\n${r.output}`);
}

try {
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', process.cwd(), clone]);
  console.log(
    `a fresh clone of ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim()}`,
  );

  const omitDev = run('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund']);
  expectFailure(
    'npm ci --omit=dev stops with the documented install',
    omitDev,
    'install with `npm ci && npm prune --omit=dev`',
  );
  rmSync(join(clone, 'node_modules'), { recursive: true, force: true });

  const oldNode = process.env.OLD_NODE ?? '/usr/bin/node';
  const oldVersion = existsSync(oldNode)
    ? execFileSync(oldNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
    : undefined;
  if (oldVersion && Number.parseInt(oldVersion, 10) < 22) {
    // The npm on PATH, run by the old Node (npm itself runs on Node 20).
    const npmCli = realpathSync(
      execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim(),
    );
    const refused = run(oldNode, [npmCli, 'ci', '--no-audit', '--no-fund']);
    expectFailure(
      `npm ci on Node.js ${oldVersion} is refused (engine-strict)`,
      refused,
      'EBADENGINE',
    );
    if (existsSync(join(clone, 'node_modules')))
      failures.push(`npm ci on Node.js ${oldVersion} installed packages before refusing`);
  } else {
    console.warn(
      `NOTICE: no Node.js older than 22 at ${oldNode}: the engine-strict check did not run`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error(failures.join('\n\n'));
  process.exit(1);
}
