// Node module hooks that run this repository's TypeScript sources directly, for worker threads started from tests
// (vitest transforms the test's own imports, but a worker thread is a plain Node thread that knows no TypeScript).
// `.js` specifiers that name a `.ts` file next to the importer resolve to it, as TypeScript's NodeNext resolution does,
// and `.ts` files are transpiled (types erased, nothing checked) with the repository's own TypeScript.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export async function resolve(specifier, context, nextResolve) {
  if (
    specifier.endsWith('.js') &&
    (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('file:')) &&
    context.parentURL?.endsWith('.ts')
  ) {
    const url = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(url))) return { url: url.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const source = await readFile(fileURLToPath(url), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    fileName: fileURLToPath(url),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      isolatedModules: true,
      sourceMap: false,
    },
  });
  return { format: 'module', source: outputText, shortCircuit: true };
}
