import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';

/** Headers a proxy adds for the client it relays: a request carrying one is someone else's. */
const FORWARDING = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * Whether the request comes from this machine: its TCP peer (the socket's address, never a header)
 * is a loopback address, and no forwarding header says it was relayed for another client. A header
 * can only refuse, never admit: a proxy on this machine relaying the internet is not "local".
 */
export function fromLoopback(request: FastifyRequest): boolean {
  if (FORWARDING.some((name) => request.headers[name] !== undefined)) return false;
  const peer = request.socket.remoteAddress;
  if (!peer || !ipaddr.isValid(peer)) return false;
  return ipaddr.process(peer).range() === 'loopback';
}

const LOCAL_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a URL names this machine (localhost, 127.x or [::1]): a developer's server, or a test's. */
export function isLocalAddress(url: string): boolean {
  return URL.canParse(url) && LOCAL_HOSTS.test(new URL(url).hostname);
}

/** An onRequest hook answering 404 (as if the route did not exist) to anyone but this machine. */
export async function loopbackOnly(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!fromLoopback(request)) return reply.callNotFound();
}
