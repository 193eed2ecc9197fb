#!/usr/bin/env node
/**
 * The installed `docops` command: package.json `bin` is this module bundled as CommonJS (dist/cli/docops.cjs,
 * tools/build/bundle-cli.ts). It answers `--version` from what it imports itself; every other command turns on
 * Node's compile cache where Node has one (compile-cache.ts) before it loads the dispatcher and the command. Tests
 * and the library call main.ts, which never touches the module loader.
 */
import { enableCompileCache } from './compile-cache.js';
import { isVersionFlag, packageVersion } from './version.js';

const argv = process.argv.slice(2);
if (isVersionFlag(argv[0])) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  enableCompileCache({ profile: argv[0] ?? '' });
  void import('./run.js')
    .then(({ run }) => run(argv))
    .then((code) => {
      process.exitCode = code;
    });
}
