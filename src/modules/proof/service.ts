import type { Db, Queryable } from '../../platform/db/index.ts';
import { errors } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import type { Logger } from '../../platform/logger.ts';
import { deriveKey } from '../../platform/secrets.ts';
import type { ObjectStorage, StoredObject } from '../../integrations/storage/index.ts';
import type { ProofOfDelivery, ProofReader, ReadAlongside } from '../delivery/index.ts';
import {
  codeMatches,
  generateCode,
  hashCode,
  isCodeShaped,
  MAX_CODE_ATTEMPTS,
} from './domain/code.ts';
import { EXTENSIONS, MAX_PROOF_BYTES, sniffImage } from './domain/image.ts';
import { LINK_TTL_SECONDS, linkIsValid, linkQuery } from './domain/links.ts';
import { type ConfirmationState, type ShownProofRow, showProof } from './domain/shown.ts';
import { confirmationsRepository as confirmations } from './confirmations-repository.ts';
import {
  proofJsonFor,
  proofRepository as repo,
  type MediaKind,
  type ProofRow,
} from './repository.ts';

export interface ProofServiceDeps {
  db: Db;
  storage: ObjectStorage;
  /** The proof module's own key (derived from SECRETS_KEY by the app). */
  key: Buffer;
  publicBaseUrl: string;
  clock: () => number;
  log: Logger;
}

export interface IssuedCode {
  /** The plain code when it was issued by this call (to send to the recipient); undefined when the order already had one. */
  code: string | undefined;
}

export interface MediaInput {
  orderId: string;
  kind: MediaKind;
  bytes: Uint8Array;
  courierId?: string | undefined;
  /** When the courier took it (their phone's clock, e.g. for an upload queued offline); now by default. */
  takenAt?: Date | undefined;
  /** The uploader's own id for this image: the same id again (a replayed upload) answers the proof already stored. */
  clientId?: string | undefined;
}

/**
 * Photos and signatures one order may hold. Proofs cost storage and a courier's session could be
 * stolen; a real delivery needs a few pictures, never dozens.
 */
export const MAX_MEDIA_PER_ORDER = 10;

const limitReached = (orderId: string) =>
  errors.proofLimitReached(
    `Order ${orderId} already has ${MAX_MEDIA_PER_ORDER} photos and signatures; no more can be added.`,
  );

/** proofJsonFor's value. */
interface ProofJson {
  rows: Array<Omit<ShownProofRow, 'taken_at'> & { taken_at: number }>;
  confirmation: ConfirmationState | null;
}

const ORDER_ID = /^dlv_[0-9A-Z]{26}$/;
const PROOF_ID = /^prf_[0-9A-Z]{26}$/;
const CLIENT_ID = /^[0-9A-Za-z_-]{8,64}$/;

function requireOrderId(orderId: string): void {
  if (!ORDER_ID.test(orderId))
    throw errors.validation('order_id must be a platform order id (dlv_…).', [
      { field: 'order_id', issue: 'must be a dlv_ id' },
    ]);
}

/**
 * Proof of delivery: the recipient's 4-digit code (issued at dispatch, kept only as a keyed hash,
 * verified with a limit on wrong tries), photos and signatures (kept in object storage), and signed,
 * expiring links to them. Callers (dispatch, the courier app) check that the order and the courier
 * belong together; this service keeps the proofs.
 */
export class ProofService implements ProofReader {
  private readonly codeKey: Buffer;
  private readonly linkKey: Buffer;

  constructor(private readonly deps: ProofServiceDeps) {
    this.codeKey = deriveKey(deps.key, 'proof/codes');
    this.linkKey = deriveKey(deps.key, 'proof/links');
  }

  private now(): Date {
    return new Date(this.deps.clock());
  }

  /**
   * The order's delivery code. Idempotent: an order that has one keeps it (answers no code), unless
   * `rotate` asks for a new one, which also forgets the wrong tries. Pass the caller's transaction
   * so the code and the message carrying it commit together.
   */
  async issueCode(
    orderId: string,
    opts: { rotate?: boolean; q?: Queryable } = {},
  ): Promise<IssuedCode> {
    requireOrderId(orderId);
    const q = opts.q ?? this.deps.db;
    const code = generateCode();
    const hash = hashCode(this.codeKey, orderId, code);
    if (opts.rotate) {
      await repo.replaceCode(q, orderId, hash, this.now());
      return { code };
    }
    return { code: (await repo.insertCode(q, orderId, hash, this.now())) ? code : undefined };
  }

  /**
   * Checks the code the courier entered and, when right, records the code as the proof. A wrong
   * code counts against the limit (422 INVALID_DELIVERY_CODE, with the tries left); at the limit
   * 409 DELIVERY_CODE_LOCKED: only a photo can prove this delivery. The right code entered again
   * (a replay) answers the same, once recorded.
   */
  async verifyCode(orderId: string, code: string, courierId?: string): Promise<void> {
    requireOrderId(orderId);
    // Not a code at all (a slip, or hostile input): refused without using up a try.
    if (!isCodeShaped(code))
      throw errors.validation('A delivery code is 4 digits.', [
        { field: 'code', issue: 'must be 4 digits' },
      ]);
    const outcome = await this.deps.db.transaction(async (tx) => {
      const row = await repo.lockCode(tx, orderId);
      if (!row) return { kind: 'missing' as const };
      if (row.failed_attempts >= MAX_CODE_ATTEMPTS) return { kind: 'locked' as const };
      if (!codeMatches(this.codeKey, orderId, code, row.code_hash))
        return { kind: 'wrong' as const, failed: await repo.countFailure(tx, orderId) };
      if (!row.verified_at) {
        const now = this.now();
        await repo.markVerified(tx, orderId, now);
        await repo.insertCodeProof(tx, {
          id: newId('prf'),
          orderId,
          courierId: courierId ?? null,
          now,
        });
      }
      return { kind: 'ok' as const };
    });
    // The wrong try is committed above; the error is raised outside the transaction so it stays counted.
    if (outcome.kind === 'missing')
      throw errors.deliveryCodeNotFound(`No delivery code was issued for order ${orderId}.`);
    if (outcome.kind === 'locked') throw this.locked();
    if (outcome.kind === 'wrong') {
      const left = MAX_CODE_ATTEMPTS - outcome.failed;
      if (left <= 0) throw this.locked();
      throw errors.invalidDeliveryCode(
        `That is not the recipient's delivery code. ${left} ${left === 1 ? 'try' : 'tries'} left.`,
        [{ field: 'code', issue: `wrong code; ${left} left` }],
      );
    }
  }

  private locked() {
    return errors.deliveryCodeLocked(
      `Too many wrong delivery codes for this order: take a photo of the delivery as proof instead.`,
    );
  }

  /**
   * Stores a photo or signature (JPEG, PNG or WebP by its bytes; at most 5 MB) under an unguessable
   * key, then records it. The store is written before the row, outside any transaction; a row that
   * cannot be written removes the object again. With a client id, a replay stores nothing more.
   */
  async recordMedia(input: MediaInput): Promise<ProofRow> {
    requireOrderId(input.orderId);
    const clientId = input.clientId ?? null;
    if (clientId !== null) {
      if (!CLIENT_ID.test(clientId))
        throw errors.validation('client_id must be 8 to 64 letters, digits, - or _.', [
          { field: 'client_id', issue: 'must be 8 to 64 letters, digits, - or _' },
        ]);
      const stored = await repo.byClientId(this.deps.db, input.orderId, clientId);
      if (stored) return stored;
    }
    // A cheap early answer for an order already full; the insert below is what holds the cap.
    if ((await repo.countMedia(this.deps.db, input.orderId)) >= MAX_MEDIA_PER_ORDER)
      throw limitReached(input.orderId);
    if (input.bytes.length > MAX_PROOF_BYTES)
      throw errors.payloadTooLarge(
        `A proof image must be at most ${MAX_PROOF_BYTES / 1024 / 1024} MB.`,
      );
    const contentType = sniffImage(input.bytes);
    if (!contentType)
      throw errors.unsupportedMediaType('A proof image must be a JPEG, PNG or WebP picture.');
    const now = this.now();
    const takenAt = input.takenAt ?? now;
    if (Number.isNaN(takenAt.getTime()) || takenAt.getTime() > now.getTime() + 60_000) {
      throw errors.validation('taken_at must be a valid time, not in the future.', [
        { field: 'taken_at', issue: 'must be a valid time, not in the future' },
      ]);
    }
    const storageKey = `proofs/${input.orderId}/${randomToken(24)}.${EXTENSIONS[contentType]}`;
    await this.deps.storage.put(storageKey, input.bytes, contentType);
    const removeObject = () =>
      this.deps.storage
        .delete(storageKey)
        .catch((e: unknown) =>
          this.deps.log.warn(
            { err: e, storageKey },
            'could not remove a proof image whose record failed',
          ),
        );
    let row: ProofRow | undefined;
    try {
      const media = {
        id: newId('prf'),
        orderId: input.orderId,
        kind: input.kind,
        storageKey,
        contentType,
        size: input.bytes.length,
        courierId: input.courierId ?? null,
        clientId,
        takenAt,
        now,
      };
      row = await this.deps.db.transaction((tx) =>
        repo.insertMediaCapped(tx, media, MAX_MEDIA_PER_ORDER),
      );
    } catch (err) {
      await removeObject();
      throw err;
    }
    if (row) return row;
    // Not inserted: the same upload arrived twice at once and the other one was recorded first (keep
    // only that one), or the order reached the cap meanwhile.
    await removeObject();
    const same =
      clientId === null ? undefined : await repo.byClientId(this.deps.db, input.orderId, clientId);
    if (same) return same;
    throw limitReached(input.orderId);
  }

  /** Whether the order's delivery is proven: its code was verified or a photo or signature was recorded. */
  async isProven(orderId: string, q: Queryable = this.deps.db): Promise<boolean> {
    return (await this.provenBy(orderId, q)) !== undefined;
  }

  /** What proves the order's delivery: the recipient's code, else only a photo or signature (a fallback), else nothing. */
  async provenBy(
    orderId: string,
    q: Queryable = this.deps.db,
  ): Promise<'code' | 'fallback' | undefined> {
    const rows = await repo.forOrder(q, orderId);
    if (rows.some((r) => r.kind === 'code')) return 'code';
    return rows.length > 0 ? 'fallback' : undefined;
  }

  /** The order's proofs as partners see them, photo links signed for 15 minutes. */
  async forOrder(orderId: string): Promise<ProofOfDelivery | undefined> {
    const rows = await repo.forOrder(this.deps.db, orderId);
    const proving = rows.find((r) => r.kind === 'code') ?? rows[0];
    // The confirmation is read only for a delivery proved without the code (the only one showing it).
    const confirmation =
      proving && proving.kind !== 'code'
        ? (await confirmations.get(this.deps.db, orderId))?.state
        : undefined;
    return showProof(rows, confirmation, this.signedLink());
  }

  /** forOrder's answer inside delivery's read of the order: one statement for orders.get. */
  readonly alongside: ReadAlongside<ProofOfDelivery | undefined> = {
    column: proofJsonFor,
    read: (value) => {
      const found = (typeof value === 'string' ? JSON.parse(value) : value) as ProofJson | null;
      if (!found) return undefined;
      const rows = found.rows.map((r) => ({ ...r, taken_at: new Date(r.taken_at) }));
      return showProof(rows, found.confirmation ?? undefined, this.signedLink());
    },
  };

  /** Links to proof images signed now, for 15 minutes. */
  private signedLink(): (proofId: string) => { url: string; expires_at: string } {
    const expires = Math.floor(this.deps.clock() / 1000) + LINK_TTL_SECONDS;
    const expiresAt = new Date(expires * 1000).toISOString();
    return (id) => ({
      url: `${this.deps.publicBaseUrl}/media/proofs/${id}?${linkQuery(this.linkKey, id, expires)}`,
      expires_at: expiresAt,
    });
  }

  /** The image behind a signed link, or undefined for anything else (bad, expired, another proof's, missing). */
  async openSigned(proofId: string, exp: unknown, sig: unknown): Promise<StoredObject | undefined> {
    if (!PROOF_ID.test(proofId) || !linkIsValid(this.linkKey, proofId, exp, sig, this.deps.clock()))
      return undefined;
    const row = await repo.get(this.deps.db, proofId);
    if (!row?.storage_key) return undefined;
    const stored = await this.deps.storage.get(row.storage_key);
    return stored && { bytes: stored.bytes, contentType: row.content_type! };
  }
}
