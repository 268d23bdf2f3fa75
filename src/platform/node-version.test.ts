import { describe, expect, it } from 'vitest';
import { SUPPORTED_NODE_LINES, unsupportedNode } from './node-version.ts';

describe('unsupportedNode', () => {
  it('accepts the supported lines and anything newer', () => {
    for (const version of ['22.0.0', '22.12.1', '24.21.0', 'v24.0.0', '25.1.0', '26.0.0'])
      expect(unsupportedNode(version)).toBeUndefined();
  });

  it('refuses older lines in one line naming the supported versions and what to do', () => {
    for (const version of ['20.20.2', '21.7.3', '18.20.4', 'v16.0.0']) {
      const line = unsupportedNode(version)!;
      expect(line).toBe(
        `Node.js ${version} is too old: the Partner Platform runs on Node.js 22 or 24 (install 24, e.g. \`nvm install\`, which reads .nvmrc).`,
      );
      expect(line).not.toContain('\n');
    }
    expect(SUPPORTED_NODE_LINES).toEqual([22, 24]);
  });
});
