import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../helpers/process.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/**
 * Every environment variable the server's code reads (the operator CLI's own are documented with it;
 * the /docs code samples are a partner's program, whose variables are the partner's).
 */
function settingsRead(): Set<string> {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (path !== 'src/cli') walk(path);
      } else if (
        path.endsWith('.ts') &&
        !path.endsWith('.test.ts') &&
        path !== 'src/platform/http/openapi-samples.ts'
      ) {
        for (const m of read(path).matchAll(/\benv(?:\.|,\s*'|\['\s*)([A-Z][A-Z0-9_]+)/g))
          names.add(m[1]!);
      }
    }
  };
  walk('src');
  return names;
}

describe('settings are documented where operators look', () => {
  const code = settingsRead();
  const example = new Set(
    [...read('.env.example').matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]!),
  );
  const table = read('README.md').split('## Configuration')[1]!.split('\n## ')[0]!;
  const readme = new Set([...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));

  it('finds the settings the code reads', () => {
    expect(code.size).toBeGreaterThan(30);
    expect(code).toContain('DATABASE_URL');
  });
  it('.env.example lists every setting, and nothing else', () => {
    expect([...code].filter((n) => !example.has(n))).toEqual([]);
    expect([...example].filter((n) => !code.has(n))).toEqual([]);
  });
  it('the README configuration table explains every setting', () => {
    expect([...code].filter((n) => !readme.has(n))).toEqual([]);
  });
});

describe('deployment files run the compiled build with node', () => {
  const entry = (command: string[]) => {
    expect(command[0]).toBe('node');
    expect(command[1]).toMatch(/^dist\/[\w/-]+\.js$/);
    expect(existsSync(join(ROOT, command[1]!.replace(/^dist\/(.*)\.js$/, 'src/$1.ts')))).toBe(true);
    return command.slice(1).join(' ');
  };

  it('the Dockerfile installs exactly as CI does, from the manifests alone, before it copies the sources', () => {
    const steps = read('Dockerfile').split('\n');
    const ciInstall = read('.ci/run').match(/^npm ci .*$/m)![0];
    const install = steps.indexOf(`RUN ${ciInstall}`);
    const sources = steps.indexOf('COPY . .');
    expect(install).toBeGreaterThan(0);
    expect(sources).toBeGreaterThan(install);
    // Only the manifests (and the install's own script) come before the install: a source change keeps its layer.
    const copied = steps
      .slice(0, install)
      .filter((l) => l.startsWith('COPY '))
      .flatMap((l) => l.split(/\s+/).slice(1, -1));
    const workspaces = readdirSync(join(ROOT, 'packages')).map(
      (name) => `packages/${name}/package.json`,
    );
    expect(copied.sort()).toEqual(
      ['.npmrc', 'package-lock.json', 'package.json', 'scripts/prepare.mjs', ...workspaces].sort(),
    );
    expect(read('package.json')).toContain('"prepare": "node scripts/prepare.mjs"');
    expect(steps.slice(sources)).toContain('RUN npm run prepare');
  });

  it('the Dockerfile starts from the .nvmrc line of node:bookworm-slim pinned by digest, health-checks /readyz, and runs node as a non-root user', () => {
    const dockerfile = read('Dockerfile');
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1]).toMatch(
      new RegExp(`^node:${read('.nvmrc').trim()}-bookworm-slim@sha256:[0-9a-f]{64}$`),
    );
    // Both stages start from that one pinned image.
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual(
      ['build', 'runtime'].map((stage) => `FROM \${NODE_IMAGE} AS ${stage}`),
    );
    const health = JSON.parse(/^HEALTHCHECK .*? CMD (\[.*\])$/m.exec(dockerfile)![1]!) as string[];
    expect(health.slice(0, 2)).toEqual(['node', '-e']);
    expect(health[2]).toContain('/readyz');
    expect(dockerfile).toMatch(/^USER node$/m);
    const cmd = JSON.parse(dockerfile.match(/^CMD (.*)$/m)![1]!) as string[];
    expect(entry(cmd)).toBe('dist/server.js');
  });

  it("compose runs PostgreSQL, Redis, the migration step, the API (health-checked by the image's HEALTHCHECK) and the worker", () => {
    const compose = parse(read('compose.yaml'), { merge: true }) as {
      services: Record<string, any>;
    };
    const { api, worker, migrate, postgres, redis } = compose.services;
    expect(postgres.healthcheck).toBeDefined();
    expect(redis.healthcheck).toBeDefined();
    expect(entry(migrate.command)).toBe('dist/cli/partner-admin.js migrate');
    expect(entry(api.command)).toBe('dist/server.js');
    expect(entry(worker.command)).toBe('dist/worker.js');
    // The API keeps the image's HEALTHCHECK; the worker and the migration step serve no HTTP.
    expect(api.healthcheck).toBeUndefined();
    for (const service of [worker, migrate]) expect(service.healthcheck).toEqual({ disable: true });
    expect(api.environment.WEBHOOK_DISPATCHER).toBe('off');
    expect(api.environment.DATABASE_URL).toMatch(/^postgres:\/\//);
    // A forgotten .env stops compose instead of giving each container a throw-away key of its own.
    for (const service of [api, worker, migrate])
      expect(service.environment.SECRETS_KEY).toMatch(/^\$\{SECRETS_KEY:\?.+\}$/);
    expect(api.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(worker.depends_on.api.condition).toBe('service_healthy');
    // Uploaded photos (DATA_DIR/media, the image's /app/data, owned by node) live on a named volume.
    for (const service of [api, worker]) expect(service.volumes).toContain('media:/app/data');
    expect(Object.keys(parse(read('compose.yaml')).volumes)).toContain('media');
    expect(read('Dockerfile')).toMatch(
      /^COPY --from=build --chown=node:node \/app\/data \/app\/data$/m,
    );
  });

  it('the systemd units start node directly', () => {
    expect(read('deploy/partner-platform-api@.service')).toMatch(
      /^ExecStart=\/usr\/bin\/node dist\/server\.js$/m,
    );
    expect(read('deploy/partner-platform-worker.service')).toMatch(
      /^ExecStart=\/usr\/bin\/node dist\/worker\.js$/m,
    );
  });

  it("the image, the systemd units and the bench run node with the same NODE_OPTIONS, and compose keeps the image's", async () => {
    // V8's young generation bounded on every host (docs/operations.md, "Memory"): set once per place node runs.
    const image = /^ENV NODE_OPTIONS=(.+)$/m.exec(read('Dockerfile'))?.[1];
    expect(image).toMatch(/--max-semi-space-size=\d+/);
    for (const unit of [
      'deploy/partner-platform-api@.service',
      'deploy/partner-platform-worker.service',
    ]) {
      expect(
        [...read(unit).matchAll(/^Environment=NODE_OPTIONS=(.+)$/gm)].map((m) => m[1]),
      ).toEqual([image]);
    }
    const compose = parse(read('compose.yaml'), { merge: true }) as {
      services: Record<string, any>;
    };
    for (const name of ['api', 'worker', 'migrate'])
      expect(compose.services[name].environment.NODE_OPTIONS).toBeUndefined();
    expect(read('.env.example')).not.toMatch(/^#? ?NODE_OPTIONS=/m);
    const { productionNodeOptions } = await import('../../../bench/lib/node-options.ts');
    expect(productionNodeOptions()).toBe(image);
  });

  it('the systemd units give the file storage a writable directory under ProtectSystem=strict', () => {
    for (const unit of [
      'deploy/partner-platform-api@.service',
      'deploy/partner-platform-worker.service',
    ]) {
      const text = read(unit);
      expect(text).toMatch(/^ProtectSystem=strict$/m);
      expect(text).toMatch(/^StateDirectory=partner-platform$/m);
      expect(text).toMatch(/^Environment=STORAGE_DIR=\/var\/lib\/partner-platform\/media$/m);
    }
  });
});
