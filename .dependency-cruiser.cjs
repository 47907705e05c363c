// The layers of src/, as rules dependency-cruiser checks (`npm run lint:deps`, and a test in test/unit/repo/layers.test.ts).
//
// Data flows   sources/ → parsers/ → gate/ → history/ → report/ → github/ → hosts/ (GitHub, GitLab, GitCode)
// over         model/ (the snapshot, its sections, series, units) and json/ (strict JSON reader, schemas),
// on           common/ (errors, visible text); run/ is the pipeline (collect → judge → history point) that both entries,
// action/ and cli/, call with typed requests; the entries keep their flags, inputs and the host calls.
// A folder may import the folders before it in that row and below it; never one after it. Each rule names what it keeps.

/** Folders of src/ a layer must not reach, as one path pattern. */
const folders = (...names) => `^src/(${names.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Two modules that import each other (also through others, also type-only) cannot be read, tested or bundled apart: move what both need to where both can import it.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'common-is-the-bottom',
      severity: 'error',
      comment: 'common/ (errors, visible text) is imported by every layer, so it imports none of them.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
    {
      name: 'json-reader-imports-only-common',
      severity: 'error',
      comment:
        'The strict JSON reader and its precompiled checks sit under the model (which validates with them): they import only common/.',
      from: { path: '^src/json/', pathNot: '^src/json/(schemas|precompiled-schemas)\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(common|json)/' },
    },
    {
      name: 'schema-catalogues-are-for-scripts',
      severity: 'error',
      comment:
        "json/schemas.ts and json/precompiled-schemas.ts gather every layer's schema for `npm run schemas` and its tests; code that runs looks its check up by hash instead.",
      from: { path: '^src/', pathNot: '^src/json/(schemas|precompiled-schemas)\\.ts$' },
      to: { path: '^src/json/(schemas|precompiled-schemas)\\.ts$' },
    },
    {
      name: 'model-imports-nothing-above-it',
      severity: 'error',
      comment: 'The model (snapshot, sections, series, units) is what every stage shares: it knows no stage.',
      from: { path: '^src/model/' },
      to: { path: '^src/', pathNot: '^src/(common|json|model)/' },
    },
    {
      name: 'sources-only-fetch',
      severity: 'error',
      comment:
        "sources/ finds and fetches files (and this node's environment); it knows the evidence-source registry, not what is done with the files.",
      from: { path: '^src/sources/' },
      // Nothing after sources/; the registry in parsers/ is the one back-edge left until it moves out of parsers/.
      to: { path: '^src/', pathNot: ['^src/(common|json|model|sources)/', '^src/parsers/evidence-sources\\.ts$'] },
    },
    {
      name: 'parsers-do-not-judge-or-render',
      severity: 'error',
      comment: 'A parser only produces the model: it never knows how a figure is judged or shown.',
      from: { path: '^src/parsers/' },
      // Nothing after parsers/: a layer added later is kept out without editing this rule.
      to: { path: '^src/', pathNot: '^src/(common|json|model|sources|parsers)/' },
    },
    {
      name: 'gate-does-not-render',
      severity: 'error',
      comment: "The gate judges (pure): what a verdict looks like is the report's business.",
      from: { path: '^src/gate/' },
      to: { path: folders('history', 'report', 'github', 'hosts', 'run', 'action', 'cli') },
    },
    {
      name: 'history-does-not-render',
      severity: 'error',
      comment: "History reads and bounds the default branch's points; reports draw them.",
      from: { path: '^src/history/' },
      to: { path: folders('report', 'github', 'hosts', 'run', 'action', 'cli') },
    },
    {
      name: 'report-does-not-publish',
      severity: 'error',
      comment: "Renderers are pure (no I/O to GitHub): publishing is github/'s and the Action's.",
      from: { path: '^src/report/' },
      to: { path: folders('github', 'hosts', 'run', 'action', 'cli') },
    },
    {
      name: 'github-is-not-an-entry',
      severity: 'error',
      comment: "github/ talks to GitHub for the Action's modes; it does not run them.",
      from: { path: '^src/github/' },
      to: { path: folders('run', 'action', 'cli') },
    },
    {
      name: 'hosts-are-not-entries',
      comment:
        "hosts/ answers the same questions on GitHub, GitLab and GitCode for the entries; it does not run them, and github/ (the Action's Octokit code) does not reach it.",
      severity: 'error',
      from: { path: '^src/hosts/' },
      to: { path: folders('run', 'action', 'cli') },
    },
    {
      name: 'github-below-hosts',
      severity: 'error',
      comment: "The Action's GitHub code is one of the things hosts/ wraps: it never imports hosts/.",
      from: { path: '^src/github/' },
      to: { path: '^src/hosts/' },
    },
    {
      name: 'run-is-the-pipeline-not-an-entry',
      severity: 'error',
      comment:
        "run/ is the one pipeline both entries call: it knows no entry and publishes nothing (the host calls are the entries').",
      from: { path: '^src/run/' },
      to: { path: folders('github', 'hosts', 'action', 'cli') },
    },
    {
      name: 'entries-apart',
      severity: 'error',
      comment: 'The Action and the command line are two entries over the same pipeline: neither imports the other.',
      from: { path: '^src/(action|cli)/' },
      to: { path: '^src/(action|cli)/', pathNot: '^src/$1/' },
    },
    {
      name: 'actions-toolkit-only-at-the-edges',
      severity: 'error',
      comment:
        'Only the Action, its GitHub output and artifact download import @actions/*: everything else is tested with fixtures and no mocks.',
      from: { path: '^src/', pathNot: '^src/(action|github|sources)/' },
      to: { path: '^node_modules/@actions/' },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (entries and the parse worker are started, not imported).',
      from: {
        orphan: true,
        path: '^src/',
        pathNot: [
          '^src/(action|cli)/index\\.ts$',
          '^src/parsers/parse-worker\\.ts$',
          '\\.d\\.ts$',
          '^src/json/(schemas|precompiled-schemas)\\.ts$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
