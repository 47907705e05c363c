// Bundles the Action (dist/index.js) and the command line (dist/cli.js) as ESM, with every dependency inlined.
import commonjs from '@rollup/plugin-commonjs';
import json from '@rollup/plugin-json';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';

const plugins = () => [
  typescript({ tsconfig: './tsconfig.build.json', compilerOptions: { module: 'nodenext' } }),
  nodeResolve({ preferBuiltins: true, exportConditions: ['node', 'import', 'default'] }),
  commonjs(),
  json(),
];

// Third-party code that rollup warns about but that is harmless when bundled.
const quiet = (warning, warn) => {
  if (warning.code === 'CIRCULAR_DEPENDENCY' || warning.code === 'THIS_IS_UNDEFINED') return;
  warn(warning);
};

export default [
  {
    input: { index: 'src/index.ts', cli: 'src/cli.ts' },
    output: {
      dir: 'dist',
      format: 'es',
      sourcemap: false,
      entryFileNames: '[name].js',
      chunkFileNames: 'chunks/[name].js',
      banner: (chunk) => (chunk.name === 'cli' ? '#!/usr/bin/env node' : ''),
    },
    plugins: plugins(),
    onwarn: quiet,
  },
];
