import type { AdminActor, OperatorRole } from '../../platform/auth/actor.ts';
import { hashPassword } from '../../platform/auth/password.ts';
import type { Db } from '../../platform/db/index.ts';
import { errors, type ErrorDetail } from '../../platform/errors.ts';
import { newId, randomToken } from '../../platform/ids.ts';
import { hashApiKey } from '../../platform/secrets.ts';
import { emailProblem, normalizeRoles, passwordProblem } from './domain/input.ts';
import {
  operatorsRepository as repo,
  type OperatorRow,
  type OperatorTokenRow,
} from './repository.ts';

export const OPERATOR_TOKEN_PREFIX = 'opt_';

function requireValid(problems: Array<ErrorDetail | undefined>): void {
  const details = problems.filter((p): p is ErrorDetail => p !== undefined);
  if (details.length)
    throw errors.validation(
      `Invalid ${details.map((d) => d.field).join(', ')}: ${details[0]!.issue}.`,
      details,
    );
}

function rolesOrThrow(roles: readonly string[]): OperatorRole[] {
  const normalized = normalizeRoles(roles);
  if (!normalized)
    throw errors.validation('roles must name at least one of support, finance, admin.', [
      { field: 'roles', issue: 'must be one or more of support, finance, admin' },
    ]);
  return normalized;
}

/**
 * Operator accounts and their API tokens. Tokens are random (`opt_` + 256 bits), stored as a SHA-256
 * only and shown once. The last active admin can be neither demoted nor deactivated.
 */
export class OperatorsService {
  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  async create(input: {
    email: string;
    name: string;
    password: string;
    roles: readonly string[];
  }): Promise<OperatorRow> {
    const email = input.email.trim();
    requireValid([emailProblem(email), passwordProblem(input.password)]);
    const roles = rolesOrThrow(input.roles);
    return repo.insert(this.db, {
      id: newId('opr'),
      email,
      name: input.name,
      passwordHash: await hashPassword(input.password),
      roles,
    });
  }

  async get(id: string): Promise<OperatorRow> {
    const row = await repo.get(this.db, id);
    if (!row) throw errors.operatorNotFound(`There is no operator ${id}.`);
    return row;
  }

  async list(): Promise<OperatorRow[]> {
    return repo.list(this.db);
  }

  /** Renames, changes roles, deactivates or reactivates; refuses to leave no active admin. */
  async update(
    id: string,
    patch: { name?: string; roles?: readonly string[]; active?: boolean },
  ): Promise<OperatorRow> {
    const roles = patch.roles === undefined ? undefined : rolesOrThrow(patch.roles);
    return this.db.transaction(async (tx) => {
      const admins = await repo.lockActiveAdmins(tx);
      const losesAdmin =
        admins.includes(id) &&
        (patch.active === false || (roles !== undefined && !roles.includes('admin')));
      if (losesAdmin && admins.length === 1) {
        throw errors.lastAdmin(
          'This is the last active operator with the admin role: give another operator the admin role first.',
        );
      }
      const row = await repo.update(tx, id, { name: patch.name, roles, active: patch.active });
      if (!row) throw errors.operatorNotFound(`There is no operator ${id}.`);
      return row;
    });
  }

  async createToken(
    operatorId: string,
    input: { name: string; expiresAt?: Date },
  ): Promise<{ token: string; row: OperatorTokenRow }> {
    await this.get(operatorId);
    if (input.expiresAt && input.expiresAt.getTime() <= this.clock()) {
      throw errors.validation('expires_at must be in the future.', [
        { field: 'expires_at', issue: 'must be in the future' },
      ]);
    }
    const token = `${OPERATOR_TOKEN_PREFIX}${randomToken(32)}`;
    const row = await repo.insertToken(this.db, {
      id: newId('otk'),
      operatorId,
      name: input.name,
      hash: hashApiKey(token),
      hint: `${OPERATOR_TOKEN_PREFIX}…${token.slice(-4)}`,
      expiresAt: input.expiresAt ?? null,
    });
    return { token, row };
  }

  async listTokens(operatorId: string): Promise<OperatorTokenRow[]> {
    await this.get(operatorId);
    return repo.listTokens(this.db, operatorId);
  }

  async getToken(tokenId: string): Promise<OperatorTokenRow> {
    const row = await repo.getToken(this.db, tokenId);
    if (!row) throw errors.operatorTokenNotFound(`There is no operator token ${tokenId}.`);
    return row;
  }

  async revokeToken(tokenId: string): Promise<OperatorTokenRow> {
    const row = await repo.revokeToken(this.db, tokenId);
    if (!row) throw errors.operatorTokenNotFound(`There is no operator token ${tokenId}.`);
    return row;
  }

  /** The actor behind a bearer token: a live token of an active operator; undefined for anything else. */
  async actorForToken(bearer: string): Promise<AdminActor | undefined> {
    if (!bearer.startsWith(OPERATOR_TOKEN_PREFIX)) return undefined;
    const row = await repo.findByToken(this.db, hashApiKey(bearer), new Date(this.clock()));
    return row ? { kind: 'operator', id: row.id, roles: row.roles } : undefined;
  }
}
