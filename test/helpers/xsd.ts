// JUnit files checked against the schemas GitLab and Jenkins read, with libxml2's xmllint compiled to WebAssembly (the
// npm package xmllint-wasm): the same validator as Debian's libxml2-utils, installed by `npm ci` alone.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateXML } from 'xmllint-wasm';

const FIXTURES = join(resolve(import.meta.dirname, '..', '..'), 'test', 'fixtures', 'junit');

/** test/fixtures/junit/: the Apache Ant schema (JUnit.xsd) and Jenkins' xUnit plugin's (jenkins-junit-10.xsd). */
const JUNIT_SCHEMAS = ['JUnit.xsd', 'jenkins-junit-10.xsd'] as const;

const schemaText = new Map(JUNIT_SCHEMAS.map((name) => [name, readFileSync(join(FIXTURES, name), 'utf8')]));

/** Room for the largest report a test validates (the default 32 MiB runs out on a few MB of XML). */
const MEMORY_PAGES = 4096;

/**
 * xmllint's complaints about `xml` under each schema, each as `SCHEMA: what xmllint printed`; [] when it validates
 * under both. `name` is the file name xmllint's messages give (`name:LINE: Schemas validity error : …`).
 */
export async function schemaErrors(xml: string, name = 'report.junit.xml'): Promise<string[]> {
  const errors: string[] = [];
  for (const schema of JUNIT_SCHEMAS) {
    const result = await validateXML({
      xml: { fileName: name, contents: xml },
      schema: { fileName: schema, contents: schemaText.get(schema) ?? '' },
      initialMemoryPages: 256,
      maxMemoryPages: MEMORY_PAGES,
    });
    if (!result.valid) errors.push(`${schema}: ${result.rawOutput.trim()}`);
  }
  return errors;
}

/** What `xmllint --xpath EXPR` prints for `xml`: the parser's own reading of the file. */
export async function xpath(xml: string, expression: string): Promise<string> {
  const result = await validateXML({
    xml: { fileName: 'read.xml', contents: xml },
    normalization: 'format',
    modifyArguments: () => ['--xpath', expression, 'read.xml'],
    initialMemoryPages: 256,
    maxMemoryPages: MEMORY_PAGES,
  });
  return result.normalized;
}
