/** The hidden marker that identifies this gate's comment; comment-key keeps several gates apart. */
function commentMarker(commentKey) {
    return `<!-- ascend-memory-gate:${commentKey} -->`;
}
/** Finds this gate's comment among all of the PR's comments (every page) and creates or updates it per policy. */
async function upsertStickyComment(octokit, request) {
    const { owner, repo, issueNumber, body, marker, policy, hasFindings } = request;
    if (policy === 'never')
        return { action: 'skipped', reason: "comment is 'never'" };
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
        owner,
        repo,
        issue_number: issueNumber,
        per_page: 100,
    });
    const existing = await ownComment(octokit, comments.filter((c) => typeof c.body === 'string' && c.body.includes(marker)));
    if (existing) {
        const { data } = await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
        return { action: 'updated', id: data.id, url: data.html_url };
    }
    if (policy === 'on-change' && !hasFindings) {
        return { action: 'skipped', reason: 'everything passed and there is no earlier comment to update' };
    }
    const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issueNumber, body });
    return { action: 'created', id: data.id, url: data.html_url };
}
/**
 * The first of the marked comments that this token wrote. Anyone can paste the marker into a comment (or quote ours);
 * updating theirs would put our verdict under their name, for them to edit later. GITHUB_TOKEN and GitHub App tokens
 * post as a Bot; a personal access token posts as its user, whose login `GET /user` gives (it is refused to the others).
 */
async function ownComment(octokit, marked) {
    const byBot = marked.find((c) => c.user?.type === 'Bot');
    if (byBot !== undefined || marked.length === 0)
        return byBot;
    let login;
    try {
        login = (await octokit.rest.users.getAuthenticated()).data.login;
    }
    catch {
        return undefined;
    }
    return marked.find((c) => c.user?.login === login);
}

export { commentMarker, upsertStickyComment };
