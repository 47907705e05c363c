import { r as replaceControlCharacters } from './errors.js';
import { H as HostError } from './types2.js';

const MAX_PAGES = 100;
class Api {
    options;
    constructor(options) {
        this.options = options;
    }
    async call(attempt, path, request = {}) {
        const { label, base, auth } = this.options;
        const url = new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
        for (const [k, v] of Object.entries(request.query ?? {}))
            url.searchParams.set(k, String(v));
        const headers = {
            ...auth,
            Accept: request.accept ?? (request.text ? '*/*' : 'application/json'),
            'User-Agent': 'ascend-memory-gate',
        };
        if (request.body !== undefined)
            headers['Content-Type'] = 'application/json';
        let response;
        try {
            response = await fetch(url, {
                method: request.method ?? 'GET',
                headers,
                ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
            });
        }
        catch (error) {
            const cause = error instanceof Error && error.cause instanceof Error
                ? error.cause.message
                : error instanceof Error
                    ? error.message
                    : String(error);
            throw new HostError(`cannot reach ${label} (${this.scrub(base)}) ${attempt}: ${this.scrub(cause)}; check the network and the API address, then re-run the job`, undefined);
        }
        const text = await response.text();
        if (!response.ok && !(request.expect ?? []).includes(response.status))
            throw this.failure(attempt, response.status, text, request.needs ?? 'read');
        if (request.text || !response.ok)
            return { status: response.status, data: text };
        try {
            return { status: response.status, data: (text === '' ? null : JSON.parse(text)) };
        }
        catch {
            throw new HostError(`${label} answered ${attempt} with something that is not JSON (${response.status}); check the API address (${this.scrub(base)})`, response.status);
        }
    }
    async optional(attempt, path, request = {}) {
        const { status, data } = await this.call(attempt, path, { ...request, expect: [404] });
        return status === 404 ? null : data;
    }
    async write(attempt, path, method, body) {
        const request = { method, needs: 'write', ...(body !== undefined ? { body } : {}) };
        return (await this.call(attempt, path, request)).data;
    }
    async login(field, hint) {
        const { data } = await this.call("reading the token's user (GET /user)", 'user');
        const login = data?.[field];
        if (typeof login !== 'string')
            throw new HostError(`${this.options.label}'s GET /user names no ${field}: check ${hint}`, undefined);
        return login;
    }
    async all(attempt, path, query = {}, field) {
        const items = [];
        for (let page = 1; page <= MAX_PAGES; page++) {
            const answer = await this.call(attempt, path, { query: { ...query, per_page: 100, page } });
            const data = field === undefined ? answer.data : answer.data?.[field];
            if (!Array.isArray(data))
                throw new HostError(`${this.options.label} answered ${attempt} with no list; check the API address (${this.scrub(this.options.base)})`, undefined);
            items.push(...data);
            if (data.length < 100)
                return items;
        }
        return items;
    }
    failure(attempt, status, text, needs) {
        const { label, token } = this.options;
        const said = this.said(text);
        const saidPart = said ? ` (${label} said: ${said})` : '';
        const scope = needs === 'write' ? token.write : token.read;
        let advice;
        if (status === 401)
            advice = `${token.variable} is missing, invalid or expired`;
        else if (status === 403 && /rate limit/i.test(said))
            advice = 'the API rate limit is exhausted: re-run the job later';
        else if (status === 403)
            advice = `${token.variable} needs ${scope}`;
        else if (status === 404)
            advice = `not found, or ${token.variable} cannot see it (it needs ${scope})`;
        else if (status === 429)
            advice = 'too many requests: re-run the job later';
        else if (status >= 500)
            advice = `${label} failed to answer: re-run the job later`;
        else
            advice = 'unexpected answer';
        return new HostError(`${status} ${attempt}: ${advice}${saidPart}`, status);
    }
    said(text) {
        let message = text;
        try {
            const parsed = JSON.parse(text);
            if (typeof parsed === 'object' && parsed !== null) {
                const m = parsed.message ??
                    parsed.error ??
                    parsed.error_message;
                message = typeof m === 'string' ? m : JSON.stringify(m ?? parsed);
            }
        }
        catch {
        }
        const shown = replaceControlCharacters(this.scrub(message).trim());
        return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown;
    }
    scrub(text) {
        const { secret } = this.options;
        return secret.length >= 4 ? text.split(secret).join('***') : text;
    }
}
function segment(value) {
    return encodeURIComponent(value);
}
function pathSegments(value) {
    return value.split('/').map(encodeURIComponent).join('/');
}
const SHA = /^[0-9a-f]{40}$/;
function baseShaOf(value, what) {
    if (typeof value !== 'string' || !SHA.test(value))
        throw new HostError(`${what} names no base commit: pass --base-sha`, undefined);
    return value;
}
function labelNames(value) {
    if (!Array.isArray(value))
        return [];
    return value
        .map((l) => (typeof l === 'string' ? l : l?.name))
        .filter((l) => typeof l === 'string');
}
function text(value) {
    return typeof value === 'string' ? value : '';
}
function headWhen(added, pushes) {
    const times = added.filter((t) => Number.isFinite(t));
    if (times.length === 0)
        return null;
    const at = Math.max(...times);
    const sorted = pushes.filter((p) => Number.isFinite(p.at) && p.head !== '').sort((a, b) => a.at - b.at);
    return (sorted.filter((p) => p.at <= at).at(-1) ?? sorted[0])?.head ?? null;
}

export { Api as A, baseShaOf as b, headWhen as h, labelNames as l, pathSegments as p, segment as s, text as t };
