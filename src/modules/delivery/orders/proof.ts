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

/**
 * Another module's read about an order, run inside delivery's own statement that reads the order
 * (a scalar subquery in its select list), so that the answer takes one round trip. `column(orderId)`
 * is a SQL expression of the other module's, over its own tables, for the order whose id is the SQL
 * expression `orderId`; `read` turns the column's value into the answer. Delivery never names the
 * other module's tables, and the other module never names delivery's.
 */
export interface ReadAlongside<T> {
  column(orderId: string): string;
  read(value: unknown): T;
}
