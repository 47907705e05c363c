const STATUSES = [
    'regressed',
    'over-budget',
    'over-capacity',
    'alloc-failure',
    'oom',
    'leak-suspect',
    'step-leak',
    'low-headroom',
    'fragmented',
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
