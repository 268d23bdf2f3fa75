/** Proof of delivery's public face: delivery codes, photos and signatures, signed links to them. */
export { MAX_CODE_ATTEMPTS } from './domain/code.ts';
export { MAX_PROOF_BYTES } from './domain/image.ts';
export { LINK_TTL_SECONDS } from './domain/links.ts';
export type { MediaKind, ProofKind, ProofRow as Proof } from './repository.ts';
export { registerMediaRoute } from './routes/media.ts';
export {
  MAX_MEDIA_PER_ORDER,
  ProofService,
  type IssuedCode,
  type MediaInput,
  type ProofServiceDeps,
} from './service.ts';
export { proofModule } from './module.ts';
export { proofSettings, type ProofSettings } from './settings.ts';
export { ConfirmationService, type RecipientAnswer } from './confirmations.ts';
export type { ConfirmationRow } from './confirmations-repository.ts';
export type { ConfirmationState } from './domain/confirmation.ts';
