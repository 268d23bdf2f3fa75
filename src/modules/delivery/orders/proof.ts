import type { ReadAlongside } from './alongside.ts';

/**
 * What delivery needs of proof of delivery: the proof an order's courier gave, as orders.get and the
 * dashboard show it. The app passes the proof module's reader in; delivery knows nothing else of it.
 */
export interface ProofMedia {
  kind: 'photo' | 'signature';
  /** A signed link that works until `expires_at`. */
  url: string;
  content_type: string;
  taken_at: string;
  expires_at: string;
}

export interface ProofOfDelivery {
  /** What proved the delivery: the recipient's code, else a photo, else a signature. */
  method: 'code' | 'photo' | 'signature';
  /** When that proof was given. */
  recorded_at: string;
  /**
   * A photo or signature only: whether the recipient has confirmed the delivery (`pending` until they
   * answer the texted link, `confirmed` or `disputed` by them, `accepted` by an operator). Absent when
   * the code proved it, or for a delivery recorded before confirmations existed.
   */
  confirmation?: 'pending' | 'confirmed' | 'disputed' | 'accepted';
  /** Photos and signatures taken, oldest first. */
  media: ProofMedia[];
}

export interface ProofReader {
  /** The order's proof, or undefined when none was given. */
  forOrder(orderId: string): Promise<ProofOfDelivery | undefined>;
  /** The same, read inside delivery's read of the order (orders.get is one statement). */
  readonly alongside: ReadAlongside<ProofOfDelivery | undefined>;
}
