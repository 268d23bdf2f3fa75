import type { SessionStore } from '../modules/sessions/index.ts';

/** The couriers module's port: a deactivated courier is signed out everywhere at once (the console's edit and the operator API). */
export const endCourierSessions =
  (ctx: { sessions: SessionStore }) =>
  async (courierId: string): Promise<void> =>
    void (await ctx.sessions.endAllFor({ kind: 'courier', id: courierId }));
