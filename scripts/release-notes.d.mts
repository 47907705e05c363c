// Types of scripts/release-notes.mjs, so the TypeScript tests can import it.
/** The notes of `version` in a Keep a Changelog text; throws when its dated heading is missing or the section empty. */
export function releaseNotes(changelog: string, version: string): string;
/** The version a release tag names: `v1.2.3` → `1.2.3`; throws for anything else. */
export function tagVersion(tag: string): string;
