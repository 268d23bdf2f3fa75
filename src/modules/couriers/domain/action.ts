/** What the courier app sends: one action, with the id the phone gave it. Pure checks. */
export interface CourierAction {
  /** A UUID made on the phone when the courier acted. */
  id: string;
  kind: string;
  /** When the courier acted (the phone's clock). */
  at: Date;
  payload: Record<string, unknown>;
}

/** Where an applied job action left the job (the phone tells the courier what happened). */
export interface ActionDetail {
  stage?: string | null;
  status?: string;
}

/** A replay (`already_applied`) carries the detail the first sending was answered with. */
export type ActionResult =
  | ({ id: string; result: 'applied' | 'already_applied' } & ActionDetail)
  | { id: string; result: 'pending' }
  /** `code`: the refusal's error code (a replay answers the same, from the action's record). */
  | { id: string; result: 'refused'; reason: string; code?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KIND = /^[a-z][a-z_]{0,39}$/;

/** The action in a request body, or the sentence saying what is wrong with it. */
export function readAction(body: unknown): { action: CourierAction } | { problem: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { problem: 'The body must be a JSON object.' };
  const b = body as Record<string, unknown>;
  if (typeof b.id !== 'string' || !UUID.test(b.id)) return { problem: 'id must be a UUID.' };
  if (typeof b.kind !== 'string' || !KIND.test(b.kind))
    return { problem: 'kind must be a lower-case action name.' };
  const at = typeof b.at === 'string' && b.at.length <= 40 ? new Date(b.at) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) return { problem: 'at must be an ISO 8601 time.' };
  const payload = b.payload ?? {};
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { problem: 'payload must be a JSON object.' };
  return {
    action: {
      id: b.id.toLowerCase(),
      kind: b.kind,
      at,
      payload: payload as Record<string, unknown>,
    },
  };
}
