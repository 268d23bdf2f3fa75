/** What services and jobs log through: pino's calling shape, so they need no Fastify types. */
export interface Logger {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
}
