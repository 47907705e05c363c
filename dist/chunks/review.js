import path from 'node:path';
import { U as UsageError, v as visible } from './errors.js';
import { loadBaseline } from './baseline.js';
import { DEFAULT_CONFIG_PATH, loadGateConfig } from './thresholds.js';
import 'node:fs';
import './atomic-write.js';
import 'node:crypto';
import 'node:fs/promises';
import './reader.js';
import './_commonjsHelpers.js';
import './validate.js';
import 'node:v8';
import 'node:vm';
import './evidence-sources.js';
import './whole-text.js';
import 'node:buffer';
import './document-json.js';
import './roll-up.js';
import './index.js';
import './limits.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';

function repositoryPath(file, flag) {
    const relative = path.isAbsolute(file) ? path.relative(process.cwd(), file) : file;
    const normalized = path.posix.normalize(relative.split(path.sep).join('/'));
    if (normalized === '.' || normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized)) {
        throw new UsageError(`${flag} must be a file inside the checkout to be read at the base commit, got '${file}'`);
    }
    return normalized;
}
async function hostOf(target) {
    const { token } = target;
    if (token === undefined)
        return undefined;
    if (target.host === 'gitlab')
        return (await import('./gitlab.js')).gitLabHost({ base: target.api, project: target.repo, token });
    if (target.host === 'gitcode')
        return (await import('./gitcode.js')).gitCodeHost({
            base: target.api,
            repo: target.repo,
            token,
            variable: target.tokenVariable,
        });
    return (await import('./github.js')).gitHubHost({ base: target.api, repo: target.repo, token });
}
async function prepareReview(flags, files, say) {
    if (!flags.comment && flags.host === undefined)
        return null;
    const { detectReview } = await import('./detect.js');
    const target = detectReview(flags, process.env);
    if (target === null)
        throw new UsageError('--comment: no CI host found (GitHub Actions, GitLab CI, an AtomGit pipeline): give --host github|gitlab|gitcode --repo OWNER/NAME --pr N');
    const host = await hostOf(target);
    if (target.number === undefined) {
        say(`note: ${target.from}: not a change request, the working tree's baseline and config gate it and nothing is posted`);
        return { target, host, limits: undefined };
    }
    const noun = target.host === 'gitlab' ? 'merge request' : 'pull request';
    let cr;
    try {
        cr = host === undefined ? undefined : await host.changeRequest(target.number);
    }
    catch (error) {
        if (!(error instanceof Error) || error.name !== 'HostError' || target.baseSha === undefined)
            throw error;
        say(`warning: cannot read ${noun} ${target.number} (${visible(error.message)}): its labels are not read, and its base commit's limits gate it`);
    }
    const baseSha = target.baseSha ?? cr?.baseSha;
    if (baseSha === undefined)
        throw new UsageError(`cannot tell the base commit of ${noun} ${target.number}, whose baseline and config gate it: set ${target.tokenVariable} or pass --base-sha`);
    const paths = {
        baseline: repositoryPath(files.baseline, '--baseline'),
        config: repositoryPath(files.config ?? DEFAULT_CONFIG_PATH, '--config'),
    };
    const { chooseLimits, gitReaderWith, labelForHead, limitsAtCommit } = await import('./limits2.js');
    const reader = (await gitReaderWith(process.cwd(), baseSha)) ?? host;
    if (reader === undefined) {
        throw new UsageError(`the base commit ${baseSha.slice(0, 12)} of ${noun} ${target.number} is not in this clone and there is no ${target.tokenVariable} to read it through the API: fetch it (git fetch origin ${baseSha}) or set ${target.tokenVariable}`);
    }
    const base = await limitsAtCommit(reader, paths, baseSha).catch((error) => {
        throw error instanceof Error && error.name === 'HostError'
            ? new UsageError(`cannot read the base commit ${baseSha.slice(0, 12)} of ${noun} ${target.number}, whose baseline and config gate it: ${error.message}`)
            : error;
    });
    const head = { baseline: await loadBaseline(files.baseline), config: await loadGateConfig(files.config) };
    const labels = cr?.labels ?? [];
    const label = base.config.baselineUpdateLabel;
    let notCounted;
    if (host !== undefined && cr !== undefined && labels.includes(label)) {
        const labelReader = (await gitReaderWith(process.cwd(), cr.headSha)) ?? host;
        notCounted = await labelForHead(host, labelReader, cr, [paths.baseline, paths.config], label);
    }
    const limits = chooseLimits(base, head, { baseSha, labels }, notCounted);
    const { used } = limits;
    say(`note: ${target.from}: ${noun} ${target.number} is gated against the baseline and config of ${used.from === 'base' ? `its base commit ${baseSha.slice(0, 12)} (read through ${'via' in reader ? 'git' : 'the API'})` : `its own head (label '${label}')`}`);
    sayLimitChanges(used, label, noun, target, say);
    return { target, host, limits };
}
function sayLimitChanges(used, label, noun, target, say) {
    if (used.labelNotCounted !== undefined) {
        const why = used.labelNotCounted;
        const reason = why.how === 'label'
            ? `${why.files.join(' and ')} changed after it was set (${why.since.slice(0, 12)} → ${why.at.slice(0, 12)})`
            : `which limits a maintainer saw cannot be told (${why.unknown ?? 'no record'})`;
        say(`warning: the label '${label}' did not count: ${reason}; ${why.removed ? 'it was removed' : `${target.tokenVariable} cannot remove it`}: a maintainer sets it again after reviewing the change`);
    }
    else if (used.changes.length > 0 && used.from === 'base') {
        say(`warning: this ${noun} changes ${used.changes.length} limit(s) (baseline or config); they were not used: a maintainer adds the label '${label}' to use them`);
    }
    for (const change of used.changes.slice(0, 10))
        say(`  ${change.source} ${visible(change.key)}: ${String(change.before)} → ${String(change.after)}`);
    if (used.changes.length > 10)
        say(`  …and ${used.changes.length - 10} more`);
}
function runUrl(env) {
    const github = env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
        ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
        : undefined;
    const url = env.CI_JOB_URL || env.BUILD_URL || github;
    return url !== undefined && /^https?:\/\//.test(url) ? url : undefined;
}
const COMMENT_LIMIT = 65_536;
async function postReview(review, report, when, extra, say) {
    const { target, host, limits } = review;
    const noun = target.host === 'gitlab' ? 'merge request note' : 'pull request comment';
    if (target.number === undefined)
        return;
    if (host === undefined) {
        say(`warning: no ${target.tokenVariable}: the ${noun} was not posted (it needs ${target.host === 'gitlab' ? 'a project or personal access token with the `api` scope; CI_JOB_TOKEN cannot post notes' : 'a token that may comment'})`);
        return;
    }
    const { commentMarker } = await import('./comment.js');
    const { renderMarkdown } = await import('./markdown.js');
    const { upsertSticky } = await import('./sticky.js');
    const marker = commentMarker('default');
    const url = runUrl(process.env);
    const body = renderMarkdown(extra.view, {
        marker,
        maxBytes: COMMENT_LIMIT,
        ...(url !== undefined ? { runUrl: url } : {}),
        ...(extra.preface !== undefined ? { preface: extra.preface } : {}),
        ...(target.host === 'gitcode' ? { chartModules: 0 } : {}),
    });
    const hasFindings = report.entries.some((e) => e.severity !== 'ok') ||
        (limits?.used.changes.length ?? 0) > 0 ||
        limits?.used.labelNotCounted !== undefined;
    try {
        const result = await upsertSticky(host, { number: target.number, body, marker, policy: when, hasFindings });
        if (result.action === 'skipped')
            say(`note: the ${noun} was not posted: ${result.reason}`);
        else if (result.action === 'replaced')
            say(`note: the ${noun} was replaced (${host.name} documents no edit): ${result.old} → ${result.id}${result.leftover !== undefined ? `; ${result.leftover}` : ''}`);
        else
            say(`note: the ${noun} was ${result.action} (${result.id})`);
    }
    catch (error) {
        if (!(error instanceof Error) || error.name !== 'HostError')
            throw error;
        say(`warning: could not post the ${noun}: ${visible(error.message)}; the verdict stands`);
    }
}

export { postReview, prepareReview };
