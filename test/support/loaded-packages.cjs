// Preloaded with `node --require`: when the process exits, writes on stderr the packages it loaded through
// Node's CommonJS loader (an ES module importing a CommonJS package goes through it too), one line:
// `loaded-packages: a b c`.
process.on('exit', () => {
  const names = new Set();
  for (const file of Object.keys(require.cache)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file.split('node_modules/.pnpm/').pop() ?? '');
    if (match) names.add(match[1]);
  }
  process.stderr.write(`loaded-packages: ${[...names].sort().join(' ')}\n`);
});
