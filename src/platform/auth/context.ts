import type { Environment } from './scopes.ts';

/** Who is calling: resolved from the API key, attached to the request after authentication. */
export interface AuthContext {
  keyId: string;
  appId: string;
  partnerId: string;
  environment: Environment;
  scopes: readonly string[];
}

export interface ResolvedKey extends AuthContext {
  revoked: boolean;
  /** Null when the stored secret cannot be opened with this instance's secrets key. */
  signingSecret: string | null;
  partnerActive: boolean;
  productionActive: boolean;
  /** The partner's own limits, or null for the platform defaults. */
  limits: { readsPerMinute: number; writesPerMinute: number } | null;
}

export interface KeyResolver {
  resolve(apiKey: string): Promise<ResolvedKey | null>;
}
