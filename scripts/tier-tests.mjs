// Sorts the test files into their tiers (test/README.md): reads what each test file does and
// moves it with `git mv` to where its tier's glob in vitest.config.ts finds it, rewriting the
// relative imports of the moved files and of the files that import them, and the paths that name
// them elsewhere (docs, scripts). Re-runnable: a file already in its tier stays, so after a merge
// that brings new tests into test/<area>/ running it again files only those.
//
//   node scripts/tier-tests.mjs           move (and print each move)
//   node scripts/tier-tests.mjs --check   print what would move; exit 1 when anything would
//
// A file whose heuristics misjudge it names its tier in a comment: `// tier: module`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const TIERS = ['unit', 'module', 'contract', 'journey'];
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// What puts a file in a tier, strongest first. Read from the test file and from the test helpers
// it imports (helpers whose use is read from the test itself are listed in LIBRARIES).
const SIGNS = {
  // A browser, a killed process, or a server in a process of its own.
  journey: [
    /helpers\/(browser|courier-browser)\.ts/,
    /playwright-core/,
    /\bSIGKILL\b/,
    /kill -9/,
    /\bspawnServer\(/,
  ],
  // The app (in process or through a port), an HTTP server, a CLI or any other process.
  contract: [
    /\bstartPlatform\(/,
    /\buseTwoInstances\(/,
    /\bbuildApp\(/,
    /\.inject\(/,
    /\bcreateServer\b/,
    /\bstartFake\w*\(/,
    /\.listen\(\s*(\{|\d|port\b)/,
    /\b(spawn|spawnSync|execFile|execFileSync|fork)\(/,
    /\badminCli\(/,
  ],
  // A database opened through the platform or a module, without any server.
  module: [/\bopenDatabase\(/, /\bopenPglite\(/, /\bopenPostgres\(/, /\bmigrate\(/],
};
/** Helpers that serve every tier (a constant, a flag): their own signs do not count for their importers. */
const LIBRARIES = new Set(['test/helpers/harness.ts', 'test/helpers/process.ts']);

const git = (...args) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });
const files = git('ls-files', '-co', '--exclude-standard')
  .split('\n')
  .filter(Boolean)
  .filter((f) => existsSync(join(ROOT, f)));
const isTest = (f) =>
  f.endsWith('.test.ts') &&
  (f.startsWith('src/') || f.startsWith('test/') || /^packages\/[^/]+\/test\//.test(f));
const read = (f) => readFileSync(join(ROOT, f), 'utf8');

const SPECIFIERS = [
  /(\bfrom\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bimport\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(^\s*import\s*)(['"])(\.{1,2}\/[^'"]+)\2/gm,
  /(\bvi\.(?:do)?mock\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g,
  /(\bnew URL\(\s*)(['"`])(\.{1,2}\/?[^'"`]*)\2(?=\s*,\s*import\.meta\.url)/g,
];

/** Repository paths of the relative imports of a file. */
function importsOf(file) {
  const text = read(file);
  const out = [];
  for (const re of SPECIFIERS.slice(0, 4))
    for (const m of text.matchAll(re))
      out.push(posix.normalize(posix.join(posix.dirname(file), m[3])));
  return out;
}

function signsOf(file, seen = new Set()) {
  if (seen.has(file)) return '';
  seen.add(file);
  // What the code does, not what its comments tell (a comment may mention `kill -9`).
  let text = read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  for (const dep of importsOf(file)) {
    if (
      dep.startsWith('test/') &&
      !dep.endsWith('.test.ts') &&
      !LIBRARIES.has(dep) &&
      existsSync(join(ROOT, dep))
    )
      text += `\n${signsOf(dep, seen)}`;
  }
  return text;
}

export function tierOf(file) {
  const declared = /^\s*\/\/\s*tier:\s*(unit|module|contract|journey)\b/m.exec(read(file));
  if (declared) return declared[1];
  if (file.endsWith('.browser.test.ts')) return 'journey';
  const text = signsOf(file);
  for (const tier of ['journey', 'contract', 'module'])
    if (SIGNS[tier].some((re) => re.test(text))) return tier;
  return 'unit';
}

/** The area a test belongs to: its folder under test/, or its module or layer under src/. */
function areaOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'test') return parts[1];
  if (parts[0] === 'packages') return parts[1];
  if (parts[1] === 'modules') return parts[2];
  return parts[1].endsWith('.test.ts') ? 'app' : parts[1];
}

function targetOf(file, tier) {
  const parts = file.split('/');
  // Pure tests stay where they are beside the source (src/, packages/*/test/) or move into test/<area>/unit/.
  if (tier === 'unit' && parts[0] !== 'test') return file;
  const area = areaOf(file);
  const dir = `test/${area}/${tier}`;
  if (parts[0] === 'test')
    return `${dir}/${parts.slice(TIERS.includes(parts[2]) ? 3 : 2).join('/')}`;
  // From beside the source: the path under the area names the file (src/platform/db/migrate.test.ts → db-migrate.test.ts).
  const under = parts.slice(parts[0] === 'packages' ? 3 : parts[1] === 'modules' ? 3 : 2);
  return `${dir}/${under.join('-')}`;
}

/** Where each test file out of its tier goes: `[from, to]` pairs. */
export function plan() {
  const moves = new Map();
  for (const file of files.filter(isTest)) {
    const to = targetOf(file, tierOf(file));
    if (to !== file) moves.set(file, to);
  }
  const taken = new Set(files);
  for (const [from, to] of moves) {
    if (taken.has(to) && !moves.has(to))
      throw new Error(
        `${from} → ${to}: a file is there already; name its tier in a \`// tier:\` comment or rename it`,
      );
  }
  return moves;
}

/** A relative specifier from `fromFile` to `toPath`, in the style of the original. */
function specifier(fromFile, toPath, original) {
  let spec = posix.relative(posix.dirname(fromFile), toPath);
  if (original.endsWith('/') && !spec.endsWith('/')) spec += '/';
  if (spec === '') spec = './';
  return spec.startsWith('.') ? spec : `./${spec}`;
}

function move(moves) {
  const where = (f) => moves.get(f) ?? f;
  const code = files.filter(
    (f) =>
      /\.(ts|mts|mjs|js)$/.test(f) &&
      /^(src|test|packages|scripts|bench|bin)\//.test(f) &&
      !f.includes('/generated/'),
  );
  const edits = new Map();
  for (const file of code) {
    const text = read(file);
    const next = where(file);
    let out = text;
    for (const re of SPECIFIERS) {
      out = out.replace(re, (all, lead, quote, spec) => {
        const target = posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\/$/, '');
        const moved = where(target);
        // Not a path of this tree (a specifier inside a script a test runs elsewhere): left as written.
        if (!moves.has(target) && !existsSync(join(ROOT, target))) return all;
        if (next === file && moved === target) return all;
        return `${lead}${quote}${specifier(next, moved, spec)}${quote}`;
      });
    }
    if (out !== text) edits.set(file, out);
  }
  // Paths named in prose and scripts (the README's test commands, docs, CI).
  const prose = files.filter(
    (f) =>
      (/\.(md|ts|mjs|js|json|ya?ml|sh)$/.test(f) || f === '.ci/run') &&
      f !== 'scripts/tier-tests.mjs',
  );
  const literal = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const file of prose) {
    const text = edits.get(file) ?? read(file);
    let out = text;
    for (const [from, to] of moves)
      out = out.replace(new RegExp(`(?<![\\w./-])${literal(from)}(?![\\w-])`, 'g'), to);
    if (out !== text) edits.set(file, out);
  }
  const tracked = new Set(git('ls-files').split('\n'));
  for (const [from, to] of moves) {
    mkdirSync(join(ROOT, dirname(to)), { recursive: true });
    if (tracked.has(from)) git('mv', from, to);
    else renameSync(join(ROOT, from), join(ROOT, to));
  }
  for (const [file, text] of edits) {
    writeFileSync(join(ROOT, where(file)), text);
    git('add', where(file));
  }
  return edits.size;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const moves = plan();
  for (const [from, to] of moves) console.log(`${from} → ${to}`);
  if (process.argv.includes('--check')) process.exit(moves.size ? 1 : 0);
  if (moves.size)
    console.log(
      `${moves.size} test files moved into their tiers; paths rewritten in ${move(moves)} files`,
    );
}
