import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../platform/db/index.ts';
import { sessionsRepository as repo, type SessionRow, type SubjectKind } from './repository.ts';

export interface Subject {
  kind: SubjectKind;
  id: string;
}

export interface Session {
  subject: Subject;
  /** The synchronizer token its forms carry. */
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface SessionTimeouts {
  /** Ended after this long without a request. */
  idleMs: number;
  /** Ended this long after sign-in, however busy. */
  absoluteMs: number;
}

export const DEFAULT_TIMEOUTS: SessionTimeouts = {
  idleMs: 2 * 3_600_000,
  absoluteMs: 7 * 24 * 3_600_000,
};

// last_seen_at is written at most this often, so reading pages costs no write each time.
const TOUCH_EVERY_MS = 60_000;

/** Only the SHA-256 of a session id is stored: the table alone cannot be turned into cookies. */
export const hashSessionId = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Server-side sessions for people signed in to web pages (partner members now, operators later).
 * The id is 256 random bits handed to the browser once; a new id is made at every sign-in, so an id
 * known before signing in (fixation) never becomes a signed-in one.
 */
export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
    readonly timeouts: SessionTimeouts = DEFAULT_TIMEOUTS,
  ) {}

  /** A new session for `subject`; the returned id goes into the cookie and is not kept here. */
  async start(subject: Subject): Promise<{ id: string; session: Session }> {
    const now = new Date(this.clock());
    await repo.deleteExpired(this.db, now, new Date(now.getTime() - this.timeouts.idleMs));
    const id = randomBytes(32).toString('base64url');
    const row: SessionRow = {
      id_hash: hashSessionId(id),
      subject_kind: subject.kind,
      subject_id: subject.id,
      csrf_token: randomBytes(32).toString('base64url'),
      created_at: now,
      last_seen_at: now,
      expires_at: new Date(now.getTime() + this.timeouts.absoluteMs),
    };
    await repo.insert(this.db, row);
    return { id, session: toSession(row) };
  }

  /** The live session with this id, its idle clock restarted; undefined when unknown or ended. */
  async find(id: string): Promise<Session | undefined> {
    return (await this.findMany([id])).get(id);
  }

  /**
   * The live sessions among these ids (one statement however many), their idle clocks restarted:
   * an open live page (an event stream's heartbeat) is a visit.
   */
  async findMany(ids: readonly string[]): Promise<Map<string, Session>> {
    const byHash = new Map(ids.map((id) => [hashSessionId(id), id]));
    if (byHash.size === 0) return new Map();
    const now = new Date(this.clock());
    const rows = await repo.findLive(
      this.db,
      [...byHash.keys()],
      now,
      new Date(now.getTime() - this.timeouts.idleMs),
      new Date(now.getTime() - TOUCH_EVERY_MS),
    );
    return new Map(rows.map((row) => [byHash.get(row.id_hash)!, toSession(row)]));
  }

  /** Which of these sessions (by hash) are live, without restarting their idle clocks: a push to a phone is no request from it. */
  async liveAmong(idHashes: readonly string[]): Promise<Set<string>> {
    if (idHashes.length === 0) return new Set();
    const now = new Date(this.clock());
    const idleSince = new Date(now.getTime() - this.timeouts.idleMs);
    return new Set(await repo.liveAmong(this.db, idHashes, now, idleSince));
  }

  async end(id: string): Promise<void> {
    await repo.delete(this.db, hashSessionId(id));
  }

  /** Signs the subject out everywhere; answers how many sessions ended. */
  async endAllFor(subject: Subject): Promise<number> {
    return repo.deleteForSubject(this.db, subject.kind, subject.id);
  }
}

function toSession(row: SessionRow): Session {
  return {
    subject: { kind: row.subject_kind, id: row.subject_id },
    csrfToken: row.csrf_token,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
  };
}
