// A GitLab job run on this machine as gitlab-runner's bash shell runs it: rules chosen, variables merged, the cache
// restored and saved by the job's own settings, script and after_script joined as the runner joins them.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface GitlabRule {
  if?: string;
  when?: string;
  variables?: Record<string, string>;
}
export interface GitlabJob {
  stage: string;
  image?: string;
  when?: string;
  needs?: { job: string; artifacts: boolean }[];
  rules?: GitlabRule[];
  variables?: Record<string, string>;
  cache?: { key: string; unprotect?: boolean; policy?: string; paths: string[]; when?: string };
  before_script?: string[];
  script: string[];
  after_script?: string[];
  artifacts?: { when?: string; paths: string[]; reports?: { junit?: string } };
}
export type Gitlab = { variables?: Record<string, string>; stages: string[] } & Record<string, GitlabJob>;
export type Variables = Record<string, string | undefined>;

/**
 * A rules `if:` expression as GitLab evaluates it: `$VAR` (set and not empty), `$A == $B`, `$A != "text"`,
 * `$A =~ /re/`, `!~`, `&&`, `||` and parentheses. Anything else is an error naming the expression.
 */
export function ruleMatches(expression: string, env: Variables): boolean {
  const tokens =
    expression.match(/\$\w+|"[^"]*"|'[^']*'|\/(?:\\.|[^/])+\/[a-z]*|==|!=|=~|!~|&&|\|\||\(|\)|null|\S+/g) ?? [];
  let at = 0;
  const fail = (): never => {
    throw new Error(`cannot evaluate the rule 'if: ${expression}' at '${tokens[at] ?? 'the end'}'`);
  };
  const value = (): string | undefined => {
    const token = tokens[at] ?? fail();
    if (!/^(\$|["']|null$)/.test(token)) return fail();
    at++;
    if (token.startsWith('$')) return env[token.slice(1)];
    return token === 'null' ? undefined : token.slice(1, -1);
  };
  const comparison = (): boolean => {
    if (tokens[at] === '(') {
      at++;
      const inner = or();
      if (tokens[at++] !== ')') fail();
      return inner;
    }
    const left = value();
    const op = tokens[at];
    if (op === '==' || op === '!=') {
      at++;
      const right = value();
      return (left === right) === (op === '==');
    }
    if (op === '=~' || op === '!~') {
      at++;
      const m = /^\/(.*)\/([a-z]*)$/.exec(tokens[at++] ?? '') ?? fail();
      return new RegExp(m[1]!, m[2]).test(left ?? '') === (op === '=~');
    }
    return left !== undefined && left !== '';
  };
  const and = (): boolean => {
    let result = comparison();
    while (tokens[at] === '&&') {
      at++;
      result = comparison() && result;
    }
    return result;
  };
  const or = (): boolean => {
    let result = and();
    while (tokens[at] === '||') {
      at++;
      result = and() || result;
    }
    return result;
  };
  const result = or();
  if (at !== tokens.length) fail();
  return result;
}

/** The first rule that matches (a rule without `if` always does); undefined when none does. */
export function ruleOf(job: GitlabJob, env: Variables): GitlabRule | undefined {
  return (job.rules ?? []).find((rule) => rule.if === undefined || ruleMatches(rule.if, env));
}

/** `$NAME` and `${NAME}` from the variables, as GitLab expands a setting such as `cache:policy`. */
const expand = (value: string, vars: Variables): string =>
  value.replace(/\$\{?(\w+)\}?/g, (_, name: string) => vars[name] ?? '');

/** What the runner's bash runs for a list of lines: errexit and pipefail, then each entry as it is (a multi-line one too). */
const runnerScript = (lines: readonly string[]): string => ['set -eo pipefail', ...lines].join('\n');

export interface ShellRun {
  code: number;
  out: string;
}

export interface JobRun {
  /** null when the rules leave the job out of the pipeline (`when: never`, or no rule matched). */
  script: ShellRun | null;
  afterScript: ShellRun | null;
  policy: string;
  vars: Variables;
}

/**
 * Runs job `name` of `pipeline` in `dir`: the rule that applies (its variables over the job's over the pipeline's,
 * the CI variables `ci` over all), the cache restored from `cache` (a folder standing for the cache of the job's key)
 * when its policy pulls, before_script and script in one shell, after_script in another whatever script did, then the
 * cache saved when the policy pushes and the job passed or `cache:when` is always. `shell` runs one script.
 */
export async function runGitlabJob(
  pipeline: Gitlab,
  name: string,
  options: {
    dir: string;
    cache: string;
    ci: Variables;
    shell: (script: string, cwd: string, env: Variables) => Promise<ShellRun>;
    rewrite?: (text: string) => string;
  },
): Promise<JobRun> {
  const { dir, cache, ci, shell } = options;
  const rewrite = options.rewrite ?? ((text: string): string => text);
  const job = pipeline[name];
  if (job === undefined) throw new Error(`the pipeline has no job '${name}'`);
  const rule = job.rules === undefined ? undefined : ruleOf(job, ci);
  // The predefined variables every job gets (GITLAB_CI is how a program, the gate's --comment too, tells it runs in GitLab CI).
  const vars: Variables = {
    ...pipeline.variables,
    ...job.variables,
    ...rule?.variables,
    CI: 'true',
    GITLAB_CI: 'true',
    ...ci,
    CI_PROJECT_DIR: dir,
    CI_JOB_NAME: name,
  };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) vars[k] = rewrite(v);
  const policy = job.cache ? expand(job.cache.policy ?? 'pull-push', vars) : 'none';
  if (job.rules !== undefined && (rule === undefined || rule.when === 'never'))
    return { script: null, afterScript: null, policy, vars };
  if (job.cache && policy.includes('pull'))
    for (const p of job.cache.paths)
      if (existsSync(join(cache, p))) cpSync(join(cache, p), join(dir, p), { recursive: true });
  const script = await shell(runnerScript([...(job.before_script ?? []), ...job.script].map(rewrite)), dir, {
    ...vars,
    CI_JOB_STATUS: undefined,
  });
  const afterScript = job.after_script
    ? await shell(runnerScript(job.after_script.map(rewrite)), dir, {
        ...vars,
        CI_JOB_STATUS: script.code === 0 ? 'success' : 'failed',
      })
    : null;
  if (job.cache && policy.includes('push') && (script.code === 0 || job.cache.when === 'always')) {
    mkdirSync(cache, { recursive: true });
    for (const p of job.cache.paths)
      if (existsSync(join(dir, p))) cpSync(join(dir, p), join(cache, p), { recursive: true });
  }
  return { script, afterScript, policy, vars };
}
