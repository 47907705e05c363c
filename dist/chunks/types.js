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
