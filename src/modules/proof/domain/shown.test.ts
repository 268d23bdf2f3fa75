import { describe, expect, it } from 'vitest';
import { type ShownProofRow, showProof } from './shown.ts';

const at = (s: number) => new Date(Date.UTC(2026, 10, 29, 9, 0, s));
const link = (id: string) => ({ url: `https://x.test/media/proofs/${id}`, expires_at: 'soon' });
const row = (id: string, kind: ShownProofRow['kind'], s: number): ShownProofRow => ({
  id,
  kind,
  content_type: kind === 'code' ? null : 'image/png',
  taken_at: at(s),
});

describe('showProof', () => {
  it('shows nothing for an order without a proof', () => {
    expect(showProof([], 'pending', link)).toBeUndefined();
  });

  it('is proved by the code when it was verified, whatever came first, and hides the confirmation', () => {
    const shown = showProof(
      [row('prf_a', 'signature', 1), row('prf_b', 'code', 2)],
      'pending',
      link,
    );
    expect(shown).toEqual({
      method: 'code',
      recorded_at: at(2).toISOString(),
      media: [
        {
          kind: 'signature',
          url: 'https://x.test/media/proofs/prf_a',
          content_type: 'image/png',
          taken_at: at(1).toISOString(),
          expires_at: 'soon',
        },
      ],
    });
  });

  it('is proved by the first photo before a signature, with the confirmation state', () => {
    const shown = showProof(
      [row('prf_s', 'signature', 1), row('prf_p', 'photo', 2), row('prf_q', 'photo', 3)],
      'confirmed',
      link,
    );
    expect(shown?.method).toBe('photo');
    expect(shown?.recorded_at).toBe(at(2).toISOString());
    expect(shown?.confirmation).toBe('confirmed');
    expect(shown?.media.map((m) => m.url.split('/').at(-1))).toEqual(['prf_s', 'prf_p', 'prf_q']);
  });

  it('leaves the confirmation out when there is none', () => {
    expect(showProof([row('prf_s', 'signature', 1)], undefined, link)).not.toHaveProperty(
      'confirmation',
    );
  });
});
