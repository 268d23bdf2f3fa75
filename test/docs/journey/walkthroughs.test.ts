import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, seedDataDir, spawnServer, type ServerProcess } from '../../helpers/process.ts';
import { embeddedPass } from '../../helpers/harness.ts';

// The README's first-hour walkthroughs, run as written: each command in turn through bash, in a
// directory of its own, against a server started as `npm run demo` starts it (node dist/demo.js).
// `npx ppctl` runs the repository's ppctl; the words in capitals are the ids earlier commands printed.

const readme = readFileSync(`${ROOT}README.md`, 'utf8');

/** A walkthrough's commands as a newcomer types them: one per line, a heredoc with its body. */
function walkthrough(name: string): string[] {
  const block = new RegExp(
    `<!-- walkthrough:${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n<!-- /walkthrough -->`,
  ).exec(readme)?.[1];
  if (!block) throw new Error(`README.md has no walkthrough ${name}`);
  const lines = block.split('\n').filter((l) => l.trim() !== '');
  const commands: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let command = lines[i]!;
    const end = /<<'(\w+)'/.exec(command)?.[1];
    if (end) while (lines[i] !== end) command += `\n${lines[++i]}`;
    commands.push(command);
  }
  return commands;
}

/** Where each capitalised word's value first appears in an earlier command's output. */
const IDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['PRODUCT_ID', /\bprd_[0-9A-Z]{26}\b/],
  ['VENDOR_ID', /\bven_[0-9A-Z]{26}\b/],
  ['VARIANT_ID', /\bvar_[0-9A-Z]{26}\b/],
  ['SALE_ID', /\bsale_[0-9A-Z]{26}\b/],
  ['ORDER_ID', /\bdlv_[0-9A-Z]{26}\b/],
  ['CHECKOUT_URL', /http:\/\/\S+\/sandbox\/checkout\/[\w-]+/],
  ['REFERENCE', /\bserviceD_WA[0-9a-f]{16}\b/],
];

let dir: string;
let server: ServerProcess;

/** Runs the walkthrough's commands after `npm ci` and `npm run demo`; answers each command's output. */
function runner(configDir: string) {
  const values = new Map<string, string>();
  const env = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    HOME: dir,
    PARTNER_CONFIG_DIR: join(dir, configDir),
  };
  return async (command: string): Promise<string> => {
    let line = command.replace(/^npx ppctl /gm, `node ${ROOT}packages/sdk/bin/ppctl.mjs `);
    for (const [word] of IDS) {
      if (!line.includes(word)) continue;
      expect(
        values.has(word),
        `${word} in "${command.split('\n')[0]}" was printed by no earlier command`,
      ).toBe(true);
      line = line.replaceAll(word, values.get(word)!);
    }
    const out = await new Promise<string>((resolve, reject) =>
      execFile('bash', ['-c', line], { cwd: dir, env, timeout: 90_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${command}\n${stdout}${stderr}`)) : resolve(stdout),
      ),
    );
    for (const [word, pattern] of IDS)
      if (!values.has(word) && pattern.test(out)) values.set(word, pattern.exec(out)![0]);
    return out;
  };
}

describe.runIf(embeddedPass)('the README walkthroughs, against npm run demo', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pp-walk-'));
    // Its data directory (data/demo) starts migrated: the walkthroughs are not about a first start.
    seedDataDir(join(dir, 'data', 'demo'));
    // The playground's own settings, only quicker: a courier step a second instead of five.
    server = await spawnServer(
      { SANDBOX_COURIER_STEP_SECONDS: '1', LOG_LEVEL: 'info' },
      { command: [process.execPath, `${ROOT}dist/demo.js`], cwd: dir },
    );
  }, 120_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['cod-sale', 'wallet-order'])(
    '%s starts from a fresh clone in at most 10 commands',
    (name) => {
      const commands = walkthrough(name);
      expect(commands.slice(0, 2)).toEqual(['npm ci', 'npm run demo']);
      expect(commands.length).toBeLessThanOrEqual(10);
    },
  );

  it('your first cod sale: confirmed and settled once the sandbox courier has delivered it', async () => {
    const run = runner('cod');
    const outputs: string[] = [];
    for (const command of walkthrough('cod-sale').slice(2)) outputs.push(await run(command));
    expect(outputs.find((o) => o.includes('sale id'))).toMatch(/state:\s+awaiting_delivery/);
    expect(outputs.at(-2)).toMatch(/dlv_\w+ {2}delivered\n$/); // the watch, until the courier delivered it
    expect(outputs.at(-1)).toMatch(
      /state:\s+confirmed\n[\s\S]*settled:\s+yes\n[\s\S]*delivery:\s+delivered/,
    );
  }, 120_000);

  it('your first wallet-funded order: topped up, the fee taken from the wallet, delivered', async () => {
    const run = runner('wallet');
    const outputs: string[] = [];
    for (const command of walkthrough('wallet-order').slice(2)) outputs.push(await run(command));
    expect(outputs.find((o) => o.includes('credited'))).toMatch(
      /credited:\s+yes\namount:\s+GHS 100\.00/,
    );
    const fee = /fee:\s+GHS (\d+\.\d\d)/.exec(outputs.find((o) => o.includes('order id'))!)![1]!;
    expect(outputs.at(-2)).toMatch(
      new RegExp(`balance:\\s+GHS ${(100 - Number(fee)).toFixed(2).replace('.', '\\.')}`),
    );
    expect(outputs.at(-1)).toMatch(/dlv_\w+ {2}delivered\n$/);
  }, 120_000);
});
