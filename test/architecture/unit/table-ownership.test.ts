import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/process.ts';

/**
 * Each module owns its tables: the SQL in `src/modules/<name>/` names only tables that module owns
 * (docs/architecture.md's "What each module owns" table is read as the source of truth), except the
 * reads listed below, each documented there. Another module's data is reached through its public face.
 */
const DOC = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');

/**
 * Known cross-module reads, each documented in docs/architecture.md (read-only, in one statement for
 * atomicity or speed): `module → table`. Shrink this list; never grow it silently.
 */
const EXCEPTIONS = new Set([
  'catalog → delivery_orders',
  'ledger → partners',
  'webhooks → apps',
  'payouts → ledger_entries',
  'payouts → ledger_journals',
]);

/** The owner of each table named in the owners tables: a module, or an integration (`integrations/<name>`). */
function owners(): Map<string, string> {
  const section = DOC.slice(
    DOC.indexOf('## What each module owns'),
    DOC.indexOf('## What may import what'),
  );
  const map = new Map<string, string>();
  for (const [, module, tables] of section.matchAll(
    /^\| ((?:integrations\/)?\w+) \| ([^|]+) \|/gm,
  )) {
    if (module === 'module' || module === 'integration') continue;
    for (const t of tables!.replace(/\([^)]*\)/g, '').split(',')) {
      const name = t.trim();
      if (/^\w+$/.test(name) && name !== 'none') map.set(name, module!);
    }
  }
  return map;
}

/** Every table the migrations leave: created, and neither dropped nor renamed since. */
function migratedTables(): string[] {
  const dir = join(ROOT, 'migrations');
  const tables = new Set<string>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(join(dir, file), 'utf8').toLowerCase();
    const statements =
      /\b(create|drop) table (?:if (?:not )?exists )?([a-z_][a-z0-9_]*)|\balter table (?:if exists )?([a-z_][a-z0-9_]*) rename to ([a-z_][a-z0-9_]*)/g;
    for (const [, verb, table, from, to] of sql.matchAll(statements)) {
      if (verb === 'create') tables.add(table!);
      else if (verb === 'drop') tables.delete(table!);
      else if (tables.delete(from!)) tables.add(to!);
    }
  }
  return [...tables].sort();
}

export function unowned(tables: string[], owner: Map<string, string>): string[] {
  return tables.filter((t) => !owner.has(t));
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Tables an SQL text names after from, join, into, update or delete from (inside template or string literals). */
const TABLE_REF = /\b(?:from|join|into|update)\s+([a-z_][a-z0-9_]*)\b/gi;

export function crossings(owner: Map<string, string>, allowed = EXCEPTIONS): string[] {
  const out = new Set<string>();
  const modules = join(ROOT, 'src', 'modules');
  for (const module of readdirSync(modules)) {
    for (const file of files(join(modules, module))) {
      // Only string and template literals hold SQL; code words like "import … from" are not read.
      const literals = readFileSync(file, 'utf8').match(/`[^`]*`|'(?:[^'\\\n]|\\.)*'/g) ?? [];
      for (const text of literals) {
        for (const [, table] of text.matchAll(TABLE_REF)) {
          const by = owner.get(table!.toLowerCase());
          if (by && by !== module && !allowed.has(`${module} → ${table}`))
            out.add(`${module} → ${table} (owned by ${by}) in ${relative(ROOT, file)}`);
        }
      }
    }
  }
  return [...out].sort();
}

/** The tables each module's definition declares (`tables: [...]` in `src/modules/<name>/module.ts`). */
function declaredTables(): Map<string, string> {
  const map = new Map<string, string>();
  const modules = join(ROOT, 'src', 'modules');
  for (const module of readdirSync(modules)) {
    const text = readFileSync(join(modules, module, 'module.ts'), 'utf8');
    const list = /defineModule\(\{[\s\S]*?\btables: \[([^\]]*)\]/.exec(text)?.[1];
    if (list === undefined) throw new Error(`src/modules/${module}/module.ts declares no tables`);
    for (const [, table] of list.matchAll(/'(\w+)'/g)) map.set(table!, module);
  }
  return map;
}

describe('table ownership', () => {
  it("is the same in each module's definition as in docs/architecture.md", () => {
    const documented = new Map(
      [...owners()].filter(([, owner]) => !owner.startsWith('integrations/')),
    );
    expect(Object.fromEntries([...declaredTables()].sort())).toEqual(
      Object.fromEntries([...documented].sort()),
    );
  });

  it('reads the owners of the tables from docs/architecture.md', () => {
    const owner = owners();
    expect(owner.get('ledger_entries')).toBe('ledger');
    expect(owner.get('delivery_orders')).toBe('delivery');
    expect(owner.size).toBeGreaterThan(40);
  });

  it('names an owner for every table the migrations create', () => {
    expect(migratedTables().length).toBeGreaterThan(50);
    expect(unowned(migratedTables(), owners())).toEqual([]);
    expect(owners().get('sandbox_transfers')).toBe('integrations/transfers');
  });

  it('would catch a table without an owner', () => {
    const owner = owners();
    owner.delete('payout_schedules');
    expect(unowned(migratedTables(), owner)).toEqual(['payout_schedules']);
  });

  it('keeps each module to its own tables, but for the documented exceptions', () => {
    expect(crossings(owners())).toEqual([]);
  });

  it('lists only exceptions that still happen and that the architecture document names', () => {
    const owner = owners();
    const section = DOC.slice(DOC.indexOf('## Reads across table ownership'));
    for (const e of EXCEPTIONS) {
      const [module, table] = e.split(' → ') as [string, string];
      expect(section, e).toContain(`\`${table}\``);
      const lone = new Set([...EXCEPTIONS].filter((x) => x !== e));
      expect(
        crossings(owner, lone).some((c) => c.startsWith(`${module} → ${table} `)),
        `${e} no longer happens: remove it`,
      ).toBe(true);
    }
  });

  it('would catch a module reading another module’s table', () => {
    // Pretend the ledger owned the payouts table: the payouts module's own SQL must then be caught.
    const owner = new Map([...owners(), ['payouts', 'ledger']]);
    expect(crossings(owner).some((c) => c.startsWith('payouts → payouts (owned by ledger)'))).toBe(
      true,
    );
  });
});
