/** Sessions' public face: the server-side session store of the web pages (table web_sessions). */
export {
  DEFAULT_TIMEOUTS,
  hashSessionId,
  SessionStore,
  type Session,
  type SessionTimeouts,
  type Subject,
} from './service.ts';
export type { SubjectKind } from './repository.ts';
export { sessionsModule } from './module.ts';
