import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, startPlatform, type TestPlatform } from '../../helpers/harness.ts';
import { allApps } from '../../helpers/accounts-read.ts';
import { mailedLink, newEmail, PASSWORD, verifiedOwner, WebClient } from '../../helpers/web.ts';

/** The owner invites `email` with `role`; the invitee accepts with a new password and is signed in. */
async function invited(
  p: TestPlatform,
  owner: WebClient,
  role: string,
  email = newEmail(role),
): Promise<WebClient> {
  const sent = await owner.submit('/dashboard/team', '/dashboard/team/invite', { email, role });
  expect(sent.text).toContain(`Invitation sent to ${email}`);
  const link = await mailedLink(p, email, '/invitations');
  const web = new WebClient(p);
  expect((await web.get(link)).text).toContain(`as <strong>${role}</strong>`);
  expect((await web.submit(link, link, { password: PASSWORD })).location).toBe('/dashboard');
  // Single use.
  expect((await new WebClient(p).get(link)).status).toBe(400);
  return web;
}

const memberIdOf = (html: string, email: string) =>
  new RegExp(
    `${email.replace(/[.]/g, '\\.')}</strong>[\\s\\S]*?/dashboard/team/(mbr_[0-9A-Z]{26})/role`,
  ).exec(html)?.[1];

describe('dashboard team: invitations and what each role may do', () => {
  let p: TestPlatform;
  let owner: WebClient;
  let developer: WebClient;
  let finance: WebClient;

  beforeAll(async () => {
    p = await startPlatform({ socket: false });
    ({ web: owner } = await verifiedOwner(p, newEmail('owner'), 'Kwame Logistics'));
    developer = await invited(p, owner, 'developer');
    finance = await invited(p, owner, 'finance');
  });
  afterAll(async () => {
    await p?.close();
  });

  it('lists the team for the owner only', async () => {
    const team = await owner.get('/dashboard/team');
    expect(team.status).toBe(200);
    expect(team.text.match(/\/remove"/g)).toHaveLength(3);
    for (const web of [developer, finance]) {
      const refused = await web.get('/dashboard/team');
      expect(refused.status).toBe(403);
      expect(refused.text).toMatch(/does not allow this/);
    }
  });

  it('refuses owner actions to developers and finance with 403, changing nothing', async () => {
    for (const web of [developer, finance]) {
      const csrf = /name="_csrf" value="([^"]+)"/.exec((await web.get('/dashboard')).text)![1]!;
      expect(
        (
          await web.post('/dashboard/team/invite', {
            _csrf: csrf,
            email: newEmail('x'),
            role: 'owner',
          })
        ).status,
      ).toBe(403);
    }
    expect(
      await countRows(
        p,
        "select count(*)::int as n from member_email_tokens where purpose = 'invite' and role = 'owner'",
      ),
    ).toBe(0);
  });

  it('lets developers manage apps and keys; finance reads them and sees the wallet, developers do not', async () => {
    const made = await developer.submit('/dashboard/apps', '/dashboard/apps', { name: 'Dev app' });
    expect(made.status).toBe(200);
    const appId = /<code>(app_[0-9A-Z]{26})<\/code>/.exec(made.text)![1]!;
    const apps = await finance.get('/dashboard/apps');
    expect(apps.text).toContain('Dev app');
    expect(apps.text).not.toContain('New app');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(apps.text)![1]!;
    expect(
      (await finance.post('/dashboard/apps', { _csrf: csrf, name: 'Finance app' })).status,
    ).toBe(403);
    expect((await finance.post(`/dashboard/apps/${appId}/keys`, { _csrf: csrf })).status).toBe(403);
    expect((await allApps(p)).filter((a) => a.name === 'Finance app')).toEqual([]);
    expect((await p.admin('GET', `/apps/${appId}/keys`)).body.keys).toEqual([]);
    expect((await finance.get('/dashboard/wallet')).text).toContain('GHS 0.00');
    expect((await developer.get('/dashboard/wallet')).status).toBe(403);
  });

  it('keeps an owner: the last one can neither leave nor step down', async () => {
    const team = (await owner.get('/dashboard/team')).text;
    const ownerEmail = /<strong>([^<]+)<\/strong> <span class="muted">\(you\)/.exec(team)![1]!;
    const ownerId = memberIdOf(team, ownerEmail)!;
    const demote = await owner.submit('/dashboard/team', `/dashboard/team/${ownerId}/role`, {
      role: 'developer',
    });
    expect(demote.status).toBe(400);
    expect(demote.text).toContain('at least one owner');
    const leave = await owner.submit('/dashboard/team', `/dashboard/team/${ownerId}/remove`, {});
    expect(leave.status).toBe(400);
    // One membership per member: still the owner's.
    expect((await p.app.platform.members.membershipOf(ownerId))?.role).toBe('owner');
  });

  it('removes a member, whose sessions end with it', async () => {
    const email = newEmail('leaver');
    const leaver = await invited(p, owner, 'developer', email);
    expect((await leaver.get('/dashboard/apps')).status).toBe(200);
    const id = memberIdOf((await owner.get('/dashboard/team')).text, email)!;
    expect(
      (await owner.submit('/dashboard/team', `/dashboard/team/${id}/remove`, {})).text,
    ).toContain('Removed from the team');
    expect((await leaver.get('/dashboard/apps')).status).toBe(303);
    // Signing in again finds no team.
    const again = new WebClient(p);
    await again.submit('/sign-in', '/sign-in', { email, password: PASSWORD });
    expect((await again.get('/dashboard/apps')).status).toBe(403);

    // Invited back, the existing account accepts with its own password.
    await owner.submit('/dashboard/team', '/dashboard/team/invite', { email, role: 'finance' });
    const link = await mailedLink(p, email, '/invitations');
    const back = new WebClient(p);
    expect((await back.get(link)).text).toContain('Your password');
    expect((await back.submit(link, link, { password: 'not the password' })).status).toBe(400);
    expect((await back.submit(link, link, { password: PASSWORD })).location).toBe('/dashboard');
    expect((await back.get('/dashboard/wallet')).status).toBe(200);
  });

  it('refuses to invite someone who already belongs to another team', async () => {
    const { email } = await verifiedOwner(p, newEmail('other'), 'Other Partner');
    const res = await owner.submit('/dashboard/team', '/dashboard/team/invite', {
      email,
      role: 'developer',
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('already belongs to a partner team');
  });
});
