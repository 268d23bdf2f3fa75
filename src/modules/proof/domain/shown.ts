import type { ProofOfDelivery } from '../../delivery/index.ts';

/** What a partner is shown of one proof row: its kind and, for a photo or signature, its image. */
export interface ShownProofRow {
  id: string;
  kind: 'code' | 'photo' | 'signature';
  content_type: string | null;
  taken_at: Date;
}

export type ConfirmationState = NonNullable<ProofOfDelivery['confirmation']>;

/**
 * An order's proofs (oldest first) as orders.get and the dashboard show them: proved by the code
 * when it was verified, else by the first photo, else by a signature; the confirmation's state only
 * for a delivery proved without the code; every image with its signed link (`link`).
 */
export function showProof(
  rows: readonly ShownProofRow[],
  confirmation: ConfirmationState | undefined,
  link: (proofId: string) => { url: string; expires_at: string },
): ProofOfDelivery | undefined {
  const proving =
    rows.find((r) => r.kind === 'code') ?? rows.find((r) => r.kind === 'photo') ?? rows[0];
  if (!proving) return undefined;
  return {
    method: proving.kind,
    recorded_at: proving.taken_at.toISOString(),
    ...(proving.kind !== 'code' && confirmation ? { confirmation } : {}),
    media: rows
      .filter((r) => r.kind !== 'code')
      .map((r) => {
        const { url, expires_at } = link(r.id);
        return {
          kind: r.kind as 'photo' | 'signature',
          url,
          content_type: r.content_type!,
          taken_at: r.taken_at.toISOString(),
          expires_at,
        };
      }),
  };
}
