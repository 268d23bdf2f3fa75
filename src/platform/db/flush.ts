/**
 * A RETURNING item that lets its statement's commit return before the WAL reaches the disk
 * (`synchronous_commit` off for that one transaction; the connection keeps its own setting).
 *
 * Only for state a crash may lose at no cost, written by a statement that runs on its own (inside
 * a transaction it would relax that whole transaction's commit): couriers' last positions and their
 * jobs' trail points (the next report rewrites them within seconds), and web sessions' restarted
 * idle clocks (a lost restart ends a session sooner, never later). A database crash may lose the
 * last fraction of a second of them, never corrupt them or anything committed normally. Under a
 * soak's 200 reports a second, each waiting for its flush held a pooled connection for
 * milliseconds, and those waits were most of what PostgreSQL was doing. Never for money, orders,
 * events or anything a partner or courier was told happened.
 */
export const WITHOUT_FLUSH_WAIT = "set_config('synchronous_commit', 'off', true)";
