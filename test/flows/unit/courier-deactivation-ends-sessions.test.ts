import { describe, expect, it } from 'vitest';
import { endCourierSessions } from '../../../src/flows/courier-deactivation-ends-sessions.ts';
import { as } from '../faces.ts';

describe("a courier's deactivation ends their sessions", () => {
  it('ends every session of that courier', async () => {
    const ended: unknown[] = [];
    const end = endCourierSessions(
      as({
        sessions: {
          endAllFor: async (subject: unknown) => {
            ended.push(subject);
            return 2;
          },
        },
      }),
    );
    expect(await end('cou_1')).toBeUndefined();
    expect(ended).toEqual([{ kind: 'courier', id: 'cou_1' }]);
  });
});
