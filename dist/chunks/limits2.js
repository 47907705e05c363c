import { execFile } from 'node:child_process';
import { U as UsageError } from './errors.js';
import { parseBaseline } from './baseline.js';
import { parseGateConfig } from './thresholds.js';
import { p as parseJson } from './reader.js';
import { baselineLimitChanges, configLimitChanges } from './limits-changed.js';
import { H as HostError } from './types2.js';
import 'node:fs';
import './atomic-write.js';
import 'node:crypto';
import 'node:fs/promises';
import 'node:path';
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
import './_commonjsHelpers.js';
import 'fs';
import 'path';
import 'url';
import 'module';
import './oom-cause.js';
import './keys.js';
import './baseline-changes.js';
import './escape.js';
import './names.js';
import './text-layout.js';

const HOST_NAMES = { github: 'GitHub', gitlab: 'GitLab', gitcode: 'GitCode' };
const GIT_MAX_BYTES = 512 * 1024 * 1024;
function git(args, cwd) {
    return new Promise((resolve) => {
        execFile('git', args, { cwd, maxBuffer: GIT_MAX_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
            const code = error === null
                ? 0
                : typeof error.code === 'number'
                    ? error.code
                    : 127;
            resolve({ code, stdout, stderr });
        });
    });
}
async function gitReaderWith(cwd, sha) {
    const { code } = await git(['cat-file', '-e', `${sha}^{commit}`], cwd);
    if (code !== 0)
        return null;
    return {
        via: 'git',
        async commitExists() { },
        async fileAt(path, at) {
            const spec = `${at}:./${path}`;
            const type = await git(['cat-file', '-t', spec], cwd);
            if (type.code !== 0)
                return null;
            if (type.stdout.trim() !== 'blob')
                throw new UsageError(`${path} at ${at.slice(0, 12)} is a ${type.stdout.trim()}, not a file`);
            const blob = await git(['cat-file', 'blob', spec], cwd);
            if (blob.code !== 0)
                throw new UsageError(`git cannot read ${path} at ${at.slice(0, 12)}: ${blob.stderr.trim().split('\n')[0] ?? ''}`);
            return blob.stdout;
        },
    };
}
async function limitsAtCommit(reader, paths, sha) {
    await reader.commitExists(sha);
    const [baselineText, configText] = await Promise.all([
        reader.fileAt(paths.baseline, sha),
        reader.fileAt(paths.config, sha),
    ]);
    const at = `@${sha.slice(0, 12)}`;
    return {
        baseline: baselineText === null ? null : parseBaseline(baselineText, `${paths.baseline}${at}`),
        config: configText === null
            ? parseGateConfig({}, `${paths.config}${at}`)
            : parseGateConfig(parseJson(configText, `${paths.config}${at}`), `${paths.config}${at}`),
    };
}
function chooseLimits(base, head, pr, notCounted) {
    const changes = [
        ...baselineLimitChanges(base.baseline, head.baseline),
        ...configLimitChanges(base.config, head.config),
    ];
    const label = base.config.baselineUpdateLabel;
    const fromPullRequest = changes.length > 0 && pr.labels.includes(label) && notCounted === undefined;
    const chosen = fromPullRequest ? head : base;
    const used = { from: fromPullRequest ? 'pull-request' : 'base', baseSha: pr.baseSha, label, changes };
    if (notCounted !== undefined)
        used.labelNotCounted = notCounted;
    return { ...chosen, used };
}
async function labelForHead(host, reader, cr, paths, label) {
    const voided = async (why) => {
        let removed = false;
        if (host.removeLabel !== undefined) {
            try {
                await host.removeLabel(cr.number, label);
                removed = true;
            }
            catch (error) {
                if (!(error instanceof HostError))
                    throw error;
            }
        }
        return { ...why, removed };
    };
    if (host.headWhenLabelled === undefined) {
        return voided({
            how: 'unknown',
            since: cr.headSha,
            at: cr.headSha,
            files: [],
            unknown: `${HOST_NAMES[host.name]} records no time for a label`,
        });
    }
    const seen = await host.headWhenLabelled(cr.number, label);
    if (seen === null)
        return voided({
            how: 'unknown',
            since: cr.headSha,
            at: cr.headSha,
            files: [],
            unknown: `no event of the ${host.noun} records when the label was set`,
        });
    if (typeof seen === 'object')
        return voided({ how: 'unknown', since: cr.headSha, at: cr.headSha, files: [], unknown: seen.unknown });
    if (seen === cr.headSha)
        return undefined;
    const files = [];
    for (const file of paths)
        if ((await reader.fileAt(file, seen)) !== (await reader.fileAt(file, cr.headSha)))
            files.push(file);
    return files.length === 0 ? undefined : voided({ how: 'label', since: seen, at: cr.headSha, files });
}

export { chooseLimits, gitReaderWith, labelForHead, limitsAtCommit };
