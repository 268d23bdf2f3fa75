/**
 * A RETURNING item that lets its statement's commit return before the WAL reaches the disk
 * (`synchronous_commit` off for that one transaction; the connection keeps its own setting).
 *
 * Only for telemetry the next report rewrites within seconds, written by a statement that runs on
 * its own (inside a transaction it would relax that whole transaction's commit): couriers' last
 * positions and their jobs' trail points. A database crash may then lose
 * the last fraction of a second of them (never corrupt them, and never anything committed
 * normally). Under a soak's 200 reports a second, each waiting for its flush held a pooled
 * connection for milliseconds, and those waits were most of what PostgreSQL was doing. Never for
 * money, orders, events or anything a partner or courier was told happened.
 */
export const WITHOUT_FLUSH_WAIT = "set_config('synchronous_commit', 'off', true)";
