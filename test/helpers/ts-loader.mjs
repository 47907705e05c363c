// `node --import ./test/helpers/ts-loader.mjs file.ts`: registers ts-hooks.mjs (TypeScript sources without a build step).
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
