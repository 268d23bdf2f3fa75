export type Access = 'read' | 'write';

export interface AdmitInput {
  keyId: string;
  nonce: string;
  access: Access;
  limit: number;
}

export type AdmitResult =
  | { kind: 'replayed' }
  | { kind: 'limited'; limit: number; resetSeconds: number }
  | { kind: 'ok'; limit: number; remaining: number; resetSeconds: number };

/**
 * Replay protection and rate limiting in one step, so that a shared store needs one round trip:
 * the nonce is recorded first (a replay answers before counting), then the request is counted in
 * the key's rolling window for its access kind.
 */
export interface GuardStore {
  admit(input: AdmitInput): Promise<AdmitResult>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const RATE_WINDOW_MS = 60_000;
