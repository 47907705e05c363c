// Bundles the Action (dist/index.js), the command line (dist/cli.js) and their parse worker thread (dist/parse-worker.js)
// as ESM, with every dependency inlined. Code shared by entries goes to dist/chunks/; code behind a dynamic import()
// (the artifact client, the GitHub client, the memory_compare parser with csv-parse) gets chunks of its own, loaded
// only by the runs that need it; chunks only the Action can load go to dist/action/ (see cliReach). dist/ holds no
// native module: everything is plain JavaScript.
import path from 'node:path';
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import { minify } from 'terser';

/**
 * The parse worker is an entry of its own, dist/parse-worker.js. worker-start.ts finds it with
 * `new URL('./parse-worker.js', import.meta.url)`, which is right next to the source (tests) but not in dist/, where
 * worker-start.ts lands in some chunk: this plugin emits the worker and rewrites that expression to rollup's file URL of
 * the emitted chunk, which rollup renders relative to the chunk that holds worker-start.ts (`new URL('../parse-worker.js',
 * import.meta.url)` from dist/chunks/), so the bundle finds its worker wherever dist/ is installed.
 */
function parseWorker() {
  const source = path.resolve('src/parsers/parse-worker.ts');
  const reference = /new URL\(\s*(['"])\.\/parse-worker\.js\1\s*,\s*import\.meta\.url\s*\)/g;
  let ref;
  return {
    name: 'parse-worker',
    buildStart() {
      ref = this.emitFile({ type: 'chunk', id: source, fileName: 'parse-worker.js' });
    },
    transform(code, id) {
      if (!id.endsWith(`${path.sep}worker-start.ts`) || !reference.test(code)) return null;
      reference.lastIndex = 0;
      // A function, not a replacement string: the reference id may hold `$$`, which a replacement string makes `$`.
      return { code: code.replace(reference, () => `new URL(import.meta.ROLLUP_FILE_URL_${ref})`), map: null };
    },
    generateBundle(_, bundle) {
      if (!Object.values(bundle).some((f) => f.type === 'chunk' && f.code.includes('parse-worker.js'))) {
        this.error(
          'worker-start.ts no longer references ./parse-worker.js: the parse worker would not be found at run time',
        );
      }
    },
  };
}

/**
 * fdir (tinyglobby's directory crawler) loads picomatch with an optional require() of the installed package, for a
 * glob() API of its own that tinyglobby never calls. In the Action, which has no node_modules, it finds nothing; in a
 * checkout or an npm install it found node_modules/picomatch and loaded ~65 KB more into every run (~10 ms). The
 * bundle never reaches outside dist/: that require is dropped, and the build fails if fdir stops looking like this.
 */
function noOptionalPicomatch() {
  const optional = /try \{\s*__require\.resolve\("picomatch"\);\s*pm = __require\("picomatch"\);\s*\} catch \{\}/;
  return {
    name: 'no-optional-picomatch',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]fdir[\\/]dist[\\/]index\.mjs$/.test(id)) return null;
      if (!optional.test(code))
        this.error('fdir no longer loads picomatch as noOptionalPicomatch (rollup.config.js) expects: look again');
      return { code: code.replace(optional, '/* no optional picomatch: see rollup.config.js */'), map: null };
    },
  };
}

/**
 * The npm package is the command line: it ships dist/cli.js, dist/parse-worker.js and dist/chunks/, never the Action's
 * GitHub and artifact clients (~1.3 MB). So a chunk that holds no module the command line or its worker can reach
 * (statically or by import()) is written to dist/action/ instead of dist/chunks/; package.json's `files` leaves
 * dist/action/ and dist/index.js out, and test/e2e/package.test.ts checks the installed package runs.
 */
const CLI_ROOTS = ['src/cli/index.ts', 'src/parsers/parse-worker.ts'].map((file) => path.resolve(file));
const reachedByCli = new Set();
function cliReach() {
  return {
    name: 'cli-reach',
    buildEnd() {
      reachedByCli.clear();
      const stack = [...CLI_ROOTS];
      while (stack.length > 0) {
        const id = stack.pop();
        if (reachedByCli.has(id)) continue;
        reachedByCli.add(id);
        const info = this.getModuleInfo(id);
        if (info === null) this.error(`the command line's module ${id} is not in the build`);
        stack.push(...info.importedIds, ...info.dynamicallyImportedIds);
      }
    },
  };
}
const chunkFileName = (chunk) =>
  chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => !reachedByCli.has(id))
    ? 'action/[name].js'
    : 'chunks/[name].js';

// tsconfig.build.json sets removeComments: src/ is where the comments are read; in dist/ they were ~146 kB of the
// npm package (1,525 → 1,379 kB unpacked, bench/run.mjs --only package) and of what every run parses.
/**
 * Third-party modules lose their comments and layout before bundling (local names shortened, top-level names and code kept): the npm
 * package stays under its 1.5 MB target, and our own code in dist/ stays readable for review.
 */
/** Stands in for the checkout's folder while terser works on a module (see compactDependencies). */
const ROOT_STAND_IN = '/__ascend_memory_gate_root__';

function compactDependencies() {
  return {
    name: 'compact-dependencies',
    async transform(code, id) {
      if (!id.includes(`${path.sep}node_modules${path.sep}`) || !/\.[cm]?js$/.test(id)) return null;
      // Import paths hold the checkout's folder, and terser picks short names by character frequency: the folder is
      // swapped for a fixed text while it works, so the bundle is the same wherever it is built.
      const root = path.resolve('.');
      const out = await minify(code.split(root).join(ROOT_STAND_IN), {
        compress: false,
        mangle: true,
        format: { comments: false },
        sourceMap: false,
      });
      return { code: out.code === undefined ? code : out.code.split(ROOT_STAND_IN).join(root), map: null };
    },
  };
}

const plugins = () => [
  typescript({ tsconfig: './tsconfig.build.json', compilerOptions: { module: 'nodenext' } }),
  nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }),
  commonjs(),
  json(),
  parseWorker(),
  noOptionalPicomatch(),
  cliReach(),
  compactDependencies(),
];

// Third-party code that rollup warns about but that is harmless when bundled.
const quiet = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return;
  warn(warning);
};

/**
 * Packages whose import has no side effect worth keeping when nothing of theirs is used. @actions/core imports
 * @actions/http-client (and with it undici, ~940 KB) for getIDToken alone, which this Action never calls: without this,
 * every run would load and evaluate undici at start-up. Code that does use them (the GitHub and artifact clients, both
 * loaded by dynamic import) still bundles them, in their own chunks.
 */
const SIDE_EFFECT_FREE = /[\\/]node_modules[\\/](undici|tunnel|@actions[\\/]http-client)[\\/]/;

export default [
  {
    input: { index: 'src/action/index.ts', cli: 'src/cli/index.ts' },
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: false,
      entryFileNames: '[name].js',
      chunkFileNames: chunkFileName,
      banner: (chunk) => (chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
    },
    treeshake: { moduleSideEffects: (id) => !SIDE_EFFECT_FREE.test(id) },
    plugins: plugins(),
    onwarn: quiet,
  },
];
