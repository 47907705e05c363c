#!/usr/bin/env node
// Prints the CHANGELOG.md section of a release tag (vX.Y.Z) for its GitHub release, after checking that the tag,
// package.json's version and a dated CHANGELOG heading agree; any disagreement is one `release:` line and exit 1.
// Used by .github/workflows/release.yml; `node scripts/release-notes.mjs v1.2.3 [CHANGELOG.md] [package.json]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The notes of `version` in a Keep a Changelog text: the lines under `## [version] - YYYY-MM-DD` up to the next
 * `## ` heading or the link references at the end, trimmed. Throws when the heading is missing, undated or empty.
 */
export function releaseNotes(changelog, version) {
  const lines = changelog.replace(/\r\n/g, '\n').split('\n');
  const heading = (line) => /^## \[([^\]]+)\]/.exec(line)?.[1];
  const start = lines.findIndex((line) => heading(line) === version);
  if (start === -1)
    throw new Error(
      `CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: add one (move the Unreleased entries under it)`,
    );
  if (!/^## \[[^\]]+\] - \d{4}-\d{2}-\d{2}$/.test(lines[start])) {
    throw new Error(
      `CHANGELOG.md:${start + 1}: "${lines[start]}" must be "## [${version}] - YYYY-MM-DD" (the release date)`,
    );
  }
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => line.startsWith('## ') || /^\[[^\]]+\]: /.test(line));
  const notes = (end === -1 ? rest : rest.slice(0, end)).join('\n').trim();
  if (notes === '') throw new Error(`CHANGELOG.md:${start + 1}: the section of ${version} is empty`);
  return notes;
}

/** The version a release tag names: `v1.2.3` → `1.2.3`. Throws for anything else. */
export function tagVersion(tag) {
  const m = /^v(\d+\.\d+\.\d+)$/.exec(tag);
  if (!m) throw new Error(`tag '${tag}' is not a release tag: releases are tagged vX.Y.Z (e.g. v1.2.3)`);
  return m[1];
}

function main([tag = '', changelogPath = 'CHANGELOG.md', packagePath = 'package.json']) {
  const version = tagVersion(tag);
  const packageVersion = JSON.parse(readFileSync(packagePath, 'utf8')).version;
  if (packageVersion !== version)
    throw new Error(
      `tag ${tag} names ${version} but ${packagePath} says ${packageVersion}: set "version" and tag again`,
    );
  process.stdout.write(`${releaseNotes(readFileSync(changelogPath, 'utf8'), version)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`release: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
