// Imported first by the CLI's entry point (main.ts): ES modules run their imports in order, so on a
// Node.js older than the package's `engines` ppctl stops here with one line, before anything fails
// further in. Exit code 2, as for any other problem of the set-up.
const major = Number.parseInt(process.versions.node, 10);
if (major < 22) {
  console.error(`ppctl needs Node.js 22 or later; this is Node.js ${process.versions.node}.`);
  process.exit(2);
}
