import { int, type Env } from '../../platform/settings.ts';

/** When a photo or signature may stand in for the recipient's code. */
export interface ProofSettings {
  /** How near the drop-off (metres) the courier's last reported position must be for a photo or signature to finish a job. */
  fallbackMaxDistanceM: number;
  /** How old (seconds) that position may be. */
  fallbackPositionMaxAgeSeconds: number;
}

/** Proof's settings, read from the environment. */
export function proofSettings(env: Env, problems: string[]): ProofSettings {
  return {
    fallbackMaxDistanceM: int(env, 'PROOF_FALLBACK_MAX_DISTANCE_M', 150, 10, 5000, problems),
    fallbackPositionMaxAgeSeconds: int(
      env,
      'PROOF_FALLBACK_POSITION_MAX_AGE_SECONDS',
      300,
      30,
      3600,
      problems,
    ),
  };
}

export const DEFAULT_PROOF_SETTINGS: ProofSettings = {
  fallbackMaxDistanceM: 150,
  fallbackPositionMaxAgeSeconds: 300,
};
