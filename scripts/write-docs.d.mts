// Types of scripts/write-docs.mjs, so the TypeScript tests can import it.
/** The README's two tables of action.yml's text. */
export function actionTables(actionYml: string): { inputs: string; outputs: string };
/** The README with its `<!-- action-inputs/outputs:start/end -->` spans replaced by the tables; throws without them. */
export function withActionTables(readme: string, actionYml: string): string;
/** The commands whose `--help` docs/cli.md shows, after the program's own (''). */
export const HELP_COMMANDS: readonly string[];
/** What `ascend-memory-gate [COMMAND] --help` prints at 80 columns, from the given dist/cli.js. */
export function helpText(cli: string, command: string): string;
/** docs/cli.md with each `<!-- cli-help:COMMAND:start/end -->` span replaced by that help in a text block. */
export function withHelpTexts(page: string, help: (command: string) => string): string;
/** The sample JUnit file of the regressed example, and how it is made. */
export const SAMPLE_JUNIT: string;
export const SAMPLE_CHECK: readonly string[];
export const SAMPLE_EPOCH: string;
/** The sample as `check --junit` writes it from `cli`, at SAMPLE_EPOCH, its hostname written as localhost. */
export function sampleJunit(cli: string): string;
/** A JUnit file with every hostname attribute written as `localhost`. */
export function withLocalhost(xml: string): string;
