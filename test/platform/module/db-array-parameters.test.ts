import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/platform/db/index.ts';
import { openScratchDb } from '../../helpers/raw-db.ts';

const onPostgres = Boolean(process.env.DATABASE_URL?.startsWith('postgres'));
let db: Db;

beforeAll(async () => {
  db = await openScratchDb(2);
});
afterAll(() => db.close());

// Elements PostgreSQL reads specially unless quoted, and some it reads as they are.
const TEXTS = [
  'plain',
  'vendor:ven_000001',
  '',
  'NULL',
  'null',
  'a,b',
  '{x}',
  'x}',
  ' lead',
  'trail ',
  'tab\there',
  'line\nbreak',
  'say "hi"',
  'back\\slash',
  '\\"',
  'ünïcödé',
  '{"network":"mtn","number":"024"}',
];

describe(`array parameters (${onPostgres ? 'PostgreSQL' : 'embedded'})`, () => {
  it('reach the database element for element, whatever the elements hold', async () => {
    const [row] = await db.query<{ t: string[]; n: number[]; b: boolean[] }>(
      'select $1::text[] as t, $2::bigint[] as n, $3::boolean[] as b',
      [
        [...TEXTS, null],
        [1500, -42, 0, null],
        [true, false],
      ],
    );
    expect(row!.t).toEqual([...TEXTS, null]);
    // int8 arrays come back as strings from pg, as numbers from PGlite: the values are what counts.
    expect(row!.n.map((v) => (v === null ? null : Number(v)))).toEqual([1500, -42, 0, null]);
    expect(row!.b).toEqual([true, false]);
  });

  it('work in the set-based statements a payout run sends (unnest of a thousand rows)', async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => `pout_${i}`);
    const json = ids.map((id) => JSON.stringify({ id, name: `Kofi "K" Boateng, ${id}` }));
    const rows = await db.query<{ id: string; doc: { id: string; name: string } }>(
      'select id, doc from unnest($1::text[], $2::jsonb[]) as x(id, doc) order by id',
      [ids, json],
    );
    expect(rows).toHaveLength(1000);
    for (const r of rows) expect(r.doc).toEqual({ id: r.id, name: `Kofi "K" Boateng, ${r.id}` });
  });
});
