import type { TestPlatform } from './harness.ts';

/** Tests read what a partner was (or will be) sent through the webhooks module's face, not its table. */
export async function eventsAbout(p: Pick<TestPlatform, 'app'>, subjectId: string, type?: string) {
  const events = await p.app.platform.webhookAdmin.eventsAbout(subjectId);
  return type === undefined ? events : events.filter((e) => e.type === type);
}
