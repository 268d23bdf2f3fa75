// Tests read partners' apps as operators list them (the operator API), not SQL on the apps table,
// and a member's partner through the members face, not SQL on members and memberships.
import type { TestPlatform } from './harness.ts';

export interface ListedApp {
  app_id: string;
  name: string;
  webhook_url: string | null;
}

/** Every partner's apps: each page of `GET /partners`, then each partner's `GET /partners/:id/apps`. */
export async function allApps(p: Pick<TestPlatform, 'admin'>): Promise<ListedApp[]> {
  const apps: ListedApp[] = [];
  for (let after = ''; ; ) {
    const page = (await p.admin('GET', `/partners?limit=200${after}`)).body;
    for (const { partner_id } of page.partners)
      apps.push(...(await p.admin('GET', `/partners/${partner_id}/apps`)).body.apps);
    if (page.next_after === null) return apps;
    after = `&after=${page.next_after}`;
  }
}

/** The partner of the member signed up as `email`, through the members face. */
export async function partnerOfMember(
  p: Pick<TestPlatform, 'app'>,
  email: string,
): Promise<string> {
  const members = p.app.platform.members;
  const member = await members.findByEmail(email);
  const membership = member && (await members.membershipOf(member.id));
  if (!membership) throw new Error(`no member of a partner signed up as ${email}`);
  return membership.partner_id;
}
