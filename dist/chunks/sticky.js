import { isMarkedBy } from './comment.js';
import { H as HostError } from './types2.js';
import './errors.js';

const made = (c) => ({
    id: c.id,
    ...(c.url !== undefined ? { url: c.url } : {}),
});
async function upsertSticky(host, request) {
    const { number, body, marker, policy, hasFindings } = request;
    if (policy === 'never')
        return { action: 'skipped', reason: "comment is 'never'" };
    const comments = await host.listComments(number);
    const marked = comments.filter((c) => isMarkedBy(c.body, marker));
    const login = marked.length === 0 ? undefined : await host.tokenLogin();
    const existing = marked.find((c) => c.author !== '' && c.author === login);
    if (existing !== undefined) {
        if (host.editComment !== undefined)
            return { action: 'updated', ...made(await host.editComment(number, existing.id, body)) };
        const created = await host.createComment(number, body);
        if (host.deleteComment === undefined)
            return {
                action: 'replaced',
                ...made(created),
                old: existing.id,
                leftover: `the ${host.commentNoun} ${existing.id} stays: this host has no delete`,
            };
        try {
            await host.deleteComment(number, existing.id);
            return { action: 'replaced', ...made(created), old: existing.id };
        }
        catch (error) {
            if (!(error instanceof HostError))
                throw error;
            return {
                action: 'replaced',
                ...made(created),
                old: existing.id,
                leftover: `the earlier ${host.commentNoun} ${existing.id} could not be deleted (${error.message})`,
            };
        }
    }
    if (policy === 'on-change' && !hasFindings)
        return { action: 'skipped', reason: 'everything passed and there is no earlier comment to update' };
    return { action: 'created', ...made(await host.createComment(number, body)) };
}

export { upsertSticky };
