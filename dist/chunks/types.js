/** Every status, in the order verdicts and reports list them: the one list (the report schema is built from it). */
const STATUSES = [
    'regressed',
    'over-budget',
    'over-capacity',
    'alloc-failure',
    'leak-suspect',
    'step-leak',
    'low-headroom',
    'above-reference',
    'imbalance',
    'growing',
    'new',
    'missing',
    'improved',
    'ignored',
    'pass',
];

export { STATUSES as S };
