import type { Db } from '../../platform/db/index.ts';
import { defineModule } from '../../platform/module.ts';
import type { AccountsService } from '../accounts/index.ts';
import type { MailSender } from './mails.ts';
import { MembersService } from './service.ts';

interface Needs {
  db: Db;
  clock: () => number;
  accounts: AccountsService;
  mailQueue: MailSender;
  publicBaseUrl: string;
}

/** The dashboard's people: sign-up, sign-in, invitations and roles. */
export const membersModule = defineModule({
  name: 'members',
  tables: ['members', 'memberships', 'member_email_tokens', 'sign_in_failures'],
  needs: ['accounts'],
  build: ({ db, clock, accounts, mailQueue, publicBaseUrl }: Needs) => ({
    face: { members: new MembersService({ db, accounts, mail: mailQueue, publicBaseUrl, clock }) },
  }),
});
