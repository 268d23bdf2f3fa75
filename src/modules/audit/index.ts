/** The audit log's public face: record changes (alone or in the caller's transaction) and search them. */
export { AuditLog, type AuditEntry } from './service.ts';
export { auditRoutes } from './routes/audit.ts';
export { auditModule } from './module.ts';
