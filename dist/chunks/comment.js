function commentMarker(commentKey) {
    return `<!-- ascend-memory-gate:${commentKey} -->`;
}
function isMarkedBy(body, marker) {
    return (typeof body === 'string' &&
        body.startsWith(marker) &&
        (body.length === marker.length || body[marker.length] === '\n' || body.startsWith('\r\n', marker.length)));
}
const ACTIONS_BOT_LOGIN = 'github-actions[bot]';

export { ACTIONS_BOT_LOGIN, commentMarker, isMarkedBy };
