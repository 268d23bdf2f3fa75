/** Members' public face: the people of partners who use the dashboard, their roles and sign-in. */
export { MembersService, type MembersDeps } from './service.ts';
export { can, isRole, ROLES, type Permission, type Role } from './domain/roles.ts';
export { SIGN_IN_LIMITS } from './throttle.ts';
export type { MailSender, OutgoingMail } from './mails.ts';
export type { MemberRow, MembershipRow, TeamMemberRow } from './repository.ts';
export { membersModule } from './module.ts';
