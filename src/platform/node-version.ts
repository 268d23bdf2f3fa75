/**
 * Stops a process started on a Node.js older than the platform supports, with one line. Each entry
 * point (server, worker, partner-admin) imports this module first: ES modules run their imports in
 * order and this one imports nothing, so on an old Node nothing else has run when it exits. npm
 * refuses the install too (`engine-strict` in .npmrc, `engines` in package.json).
 */

/** The Node.js lines the platform is built and tested for (CI runs 24, .nvmrc names it). */
export const SUPPORTED_NODE_LINES = [22, 24] as const;

/** The line to print for `version` (e.g. `20.20.2`), or undefined when it is supported. */
export function unsupportedNode(version: string): string | undefined {
  const major = Number.parseInt(version.replace(/^v/, ''), 10);
  if (major >= SUPPORTED_NODE_LINES[0]) return undefined;
  return `Node.js ${version} is too old: the Partner Platform runs on Node.js ${SUPPORTED_NODE_LINES.join(' or ')} (install 24, e.g. \`nvm install\`, which reads .nvmrc).`;
}

const problem = unsupportedNode(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
