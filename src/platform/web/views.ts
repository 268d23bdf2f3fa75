import { Eta } from 'eta';

/**
 * Templates (Eta files) rendered with escaping on by default: `<%= %>` escapes, and only `<%~ %>`
 * (used for layouts' bodies and partials) does not. Templates are read once and cached.
 */
export class Views {
  private readonly eta: Eta;

  constructor(dir: string, opts: { cache?: boolean } = {}) {
    this.eta = new Eta({
      views: dir,
      cache: opts.cache ?? true,
      autoEscape: true,
      autoTrim: [false, 'nl'],
    });
  }

  render(name: string, data: object): string {
    return this.eta.render(name, data);
  }
}
