// The one place that builds the GitHub client, loaded only by the runs that talk to GitHub (it bundles undici and
// Octokit, most of the Action's code); the workflow context and the error helpers live in context.ts.
import * as github from '@actions/github';

export type Octokit = ReturnType<typeof github.getOctokit>;

export function createOctokit(token: string): Octokit {
  return github.getOctokit(token);
}
