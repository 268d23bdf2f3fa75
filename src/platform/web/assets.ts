import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
}

/**
 * Static files served from this process under `/assets/<name>.<hash><ext>`: the hash of the content
 * is in the URL, so each URL can be cached for a year (a changed file gets a new URL).
 */
export class Assets {
  private readonly byUrl = new Map<string, Asset>();
  private readonly urls = new Map<string, string>();

  /**
   * `files`: name → absolute path (a directory's files, or single files such as one from node_modules),
   * or name → the content itself (a file built at start).
   */
  constructor(files: Record<string, string | Buffer>) {
    for (const [name, source] of Object.entries(files)) {
      const ext = extname(name);
      const type = TYPES[ext];
      if (!type) throw new Error(`no content type for asset ${name}`);
      const body = typeof source === 'string' ? readFileSync(source) : source;
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const url = `/assets/${name.slice(0, -ext.length)}.${hash}${ext}`;
      this.byUrl.set(url, { body, type });
      this.urls.set(name, url);
    }
  }

  /** A directory's files, plus `extra` single files (name → absolute path). */
  static fromDirectory(dir: string, extra: Record<string, string> = {}): Assets {
    return new Assets({
      ...Object.fromEntries(
        readdirSync(dir)
          .filter((f) => TYPES[extname(f)])
          .map((f) => [f, join(dir, f)]),
      ),
      ...extra,
    });
  }

  /** The fingerprinted URL of an asset by its file name. */
  url(name: string): string {
    const url = this.urls.get(name);
    if (!url) throw new Error(`unknown asset ${name}`);
    return url;
  }

  register(app: FastifyInstance): void {
    app.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) =>
      this.send(reply, this.byUrl.get(`/assets/${request.params.file}`)),
    );
  }

  /**
   * One route per file, for a second set of assets under /assets/ (a module's own): exact routes sit
   * beside the catch-all that `register` adds, whichever is registered first.
   */
  registerEach(app: FastifyInstance): void {
    for (const [url, asset] of this.byUrl)
      app.get(url, async (_request, reply) => this.send(reply, asset));
  }

  private send(reply: FastifyReply, asset: Asset | undefined): FastifyReply {
    reply.header('x-content-type-options', 'nosniff');
    if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .type(asset.type)
      .send(asset.body);
  }
}
