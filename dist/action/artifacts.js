import { open, mkdir, rm, realpath } from 'node:fs/promises';
import path from 'node:path';
import { p as picomatch } from '../chunks/limits.js';
import { I as InputError, v as visible } from '../chunks/errors.js';
import { d as formatBytes } from '../chunks/evidence-sources.js';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { g as getDefaultExportFromCjs } from '../chunks/_commonjsHelpers.js';
import fs__default from 'fs';
import require$$1 from 'zlib';
import require$$6 from 'util';
import require$$5 from 'stream';
import require$$4 from 'events';
import 'node:fs';
import 'path';
import 'url';
import 'module';

const DEFAULT_RETRY = { attempts: 5, baseDelayMs: 500, maxDelayMs: 8000, timeoutMs: 30_000 };
class HttpStatusError extends Error {
    status;
    constructor(status, what) {
        super(`${what}: HTTP ${status}`);
        this.status = status;
        this.name = 'HttpStatusError';
    }
}
class RequestFailed extends Error {
    constructor(message, cause) {
        super(message, { cause });
        this.name = 'RequestFailed';
    }
}
const TRANSIENT_CODES = new Set([
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'EAI_AGAIN',
    'UND_ERR_SOCKET',
    'UND_ERR_CLOSED',
    'UND_ERR_CONNECT_TIMEOUT',
    'UND_ERR_HEADERS_TIMEOUT',
    'UND_ERR_BODY_TIMEOUT',
]);
function isTransient(error) {
    if (error instanceof RequestFailed)
        return false;
    if (error instanceof HttpStatusError)
        return error.status >= 500 || error.status === 408 || error.status === 429;
    for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
        if (e.name === 'AbortError' || e.name === 'TimeoutError')
            return true;
        const code = e.code;
        if (typeof code === 'string' && TRANSIENT_CODES.has(code))
            return true;
        if (e instanceof TypeError && /^(fetch failed|terminated)$/.test(e.message))
            return true;
    }
    return false;
}
function describeError(error) {
    if (error instanceof RequestFailed)
        return error.message;
    let message = error instanceof Error ? error.message : String(error);
    for (let e = error instanceof Error ? error.cause : undefined, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
        message = `${message} (${e.message})`;
    }
    return message;
}
function backoffDelay(policy, attempt, random = Math.random) {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling * (0.5 + random() / 2));
}
async function withRetries(what, policy, onRetry, operation) {
    for (let attempt = 1;; attempt++) {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(new DOMException(`no answer in ${policy.timeoutMs} ms`, 'TimeoutError')), policy.timeoutMs);
        try {
            return await operation(controller.signal);
        }
        catch (error) {
            const reason = controller.signal.aborted ? `timed out after ${policy.timeoutMs} ms` : describeError(error);
            if (attempt >= policy.attempts || !(controller.signal.aborted || isTransient(error))) {
                throw new RequestFailed(attempt > 1 ? `${reason} (after ${attempt} attempts)` : reason, error);
            }
            const delayMs = backoffDelay(policy, attempt);
            onRetry(what, attempt, reason, delayMs);
            await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
        finally {
            clearTimeout(timer);
        }
    }
}
const USER_AGENT = 'ascend-memory-gate';
async function fetchJson(url, init, what, signal) {
    const response = await fetch(url, { ...init, signal });
    const text = await response.text();
    if (!response.ok)
        throw new HttpStatusError(response.status, what);
    try {
        return JSON.parse(text);
    }
    catch {
        throw new InputError(`${what}: the answer is not JSON`);
    }
}
function record(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}
async function streamToFile(url, file, signal, idleMs, what) {
    const idle = new AbortController();
    const stalled = () => idle.abort(new DOMException(`no data for ${idleMs} ms`, 'TimeoutError'));
    let timer = setTimeout(stalled, idleMs);
    const out = await open(file, 'w');
    let bytes = 0;
    try {
        const response = await fetch(url, {
            signal: AbortSignal.any([signal, idle.signal]),
            headers: { 'user-agent': USER_AGENT },
        });
        if (!response.ok || response.body === null) {
            await response.body?.cancel();
            throw new HttpStatusError(response.status, what);
        }
        for await (const chunk of response.body) {
            clearTimeout(timer);
            timer = setTimeout(stalled, idleMs);
            bytes += chunk.byteLength;
            await out.write(chunk);
        }
        return bytes;
    }
    finally {
        clearTimeout(timer);
        await out.close();
    }
}
function backendIdsFromToken(token) {
    let scp;
    try {
        scp = String(record(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'))).scp ?? '');
    }
    catch {
        throw new InputError('ACTIONS_RUNTIME_TOKEN is not a JWT: run the Action inside a workflow job');
    }
    for (const scope of scp.split(' ')) {
        const parts = scope.split(':');
        if (parts.length === 3 && parts[0] === 'Actions.Results' && parts[1] && parts[2])
            return { run: parts[1], job: parts[2] };
    }
    throw new InputError('ACTIONS_RUNTIME_TOKEN grants no workflow run (no Actions.Results scope)');
}
function resultsService(env, policy) {
    const base = env.ACTIONS_RESULTS_URL;
    const token = env.ACTIONS_RUNTIME_TOKEN;
    if (!base || !token)
        throw new InputError("this run's artifacts need ACTIONS_RESULTS_URL and ACTIONS_RUNTIME_TOKEN: run the Action inside a workflow job, or set 'run-id'");
    const ids = backendIdsFromToken(token);
    const call = (method, body, what, onRetry) => withRetries(what, policy, onRetry, (signal) => fetchJson(new URL(`twirp/github.actions.results.api.v1.ArtifactService/${method}`, base).href, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'user-agent': USER_AGENT },
        body: JSON.stringify({ workflow_run_backend_id: ids.run, workflow_job_run_backend_id: ids.job, ...body }),
    }, what, signal));
    return {
        where: 'this run',
        async list(onRetry) {
            const reply = record(await call('ListArtifacts', {}, 'listing the artifacts', onRetry));
            const items = Array.isArray(reply.artifacts) ? reply.artifacts : [];
            return items.map((item) => {
                const a = record(item);
                return {
                    name: String(a.name ?? ''),
                    id: Number(a.database_id),
                    size: Number(a.size ?? 0),
                    createdAt: Date.parse(String(a.created_at ?? '')) || 0,
                };
            });
        },
        async zipUrl(artifact, onRetry) {
            const reply = record(await call('GetSignedArtifactURL', { name: artifact.name }, `artifact '${artifact.name}'`, onRetry));
            if (typeof reply.signed_url !== 'string')
                throw new InputError(`artifact '${artifact.name}': the results service gave no download URL`);
            return reply.signed_url;
        },
    };
}
const PAGE_SIZE = 100;
function restService(run, env, policy) {
    const api = (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
    const headers = {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': USER_AGENT,
        ...(run.token ? { authorization: `token ${run.token}` } : {}),
    };
    const repoUrl = `${api}/repos/${encodeURIComponent(run.owner)}/${encodeURIComponent(run.repo)}`;
    return {
        where: `run ${run.runId} of ${run.owner}/${run.repo}`,
        async list(onRetry) {
            const listed = [];
            for (let page = 1;; page++) {
                const what = `listing the artifacts (page ${page})`;
                const reply = record(await withRetries(what, policy, onRetry, (signal) => fetchJson(`${repoUrl}/actions/runs/${run.runId}/artifacts?per_page=${PAGE_SIZE}&page=${page}`, { headers }, what, signal)));
                const items = Array.isArray(reply.artifacts) ? reply.artifacts : [];
                for (const item of items) {
                    const a = record(item);
                    listed.push({
                        name: String(a.name ?? ''),
                        id: Number(a.id),
                        size: Number(a.size_in_bytes ?? 0),
                        createdAt: Date.parse(String(a.created_at ?? '')) || 0,
                    });
                }
                const total = Number(reply.total_count ?? 0);
                if (items.length < PAGE_SIZE || listed.length >= total)
                    return listed;
            }
        },
        async zipUrl(artifact, onRetry) {
            const what = `artifact '${artifact.name}'`;
            return withRetries(what, policy, onRetry, async (signal) => {
                const response = await fetch(`${repoUrl}/actions/artifacts/${artifact.id}/zip`, {
                    headers,
                    redirect: 'manual',
                    signal,
                });
                await response.body?.cancel();
                const location = response.headers.get('location');
                if (response.status !== 302 || !location)
                    throw new HttpStatusError(response.status, what);
                return location;
            });
        },
    };
}
function latestOfEachName(artifacts) {
    const newest = new Map();
    for (const a of artifacts) {
        const seen = newest.get(a.name);
        if (!seen || a.createdAt > seen.createdAt || (a.createdAt === seen.createdAt && a.id > seen.id))
            newest.set(a.name, a);
    }
    return [...newest.values()];
}

var yauzl$1 = {};

var fdSlicer = {};

var pend;var hasRequiredPend;function requirePend(){if(hasRequiredPend)return pend;hasRequiredPend=1;pend=e;function e(){this.pending=0;this.max=Infinity;this.listeners=[];this.waiting=[];this.error=null;}e.prototype.go=function(e){if(this.pending<this.max){i(this,e);}else {this.waiting.push(e);}};e.prototype.wait=function(e){if(this.pending===0){e(this.error);}else {this.listeners.push(e);}};e.prototype.hold=function(){return n(this)};function n(e){e.pending+=1;var n=false;return r;function r(r){if(n)throw new Error("callback called twice");n=true;e.error=e.error||r;e.pending-=1;if(e.waiting.length>0&&e.pending<e.max){i(e,e.waiting.shift());}else if(e.pending===0){var s=e.listeners;e.listeners=[];s.forEach(t);}}function t(n){n(e.error);}}function i(e,i){i(n(e));}return pend}

var hasRequiredFdSlicer;function requireFdSlicer(){if(hasRequiredFdSlicer)return fdSlicer;hasRequiredFdSlicer=1;var e=fs__default;var r=require$$6;var t=require$$5;var n=t.Readable;var i=t.PassThrough;var o=requirePend();var s=require$$4.EventEmitter;fdSlicer.BufferSlicer=a;fdSlicer.FdSlicer=f;r.inherits(f,s);function f(e){s.call(this);this.fd=e;this.pend=new o;this.pend.max=1;this.refCount=0;}f.prototype.read=function(r,t,n,i,o){var s=this;s.pend.go(function(f){e.read(s.fd,r,t,n,i,function(e,r,t){f();o(e,r,t);});});};f.prototype.createReadStream=function(e){return new u(this,e)};f.prototype.ref=function(){this.refCount+=1;};f.prototype.unref=function(){var r=this;r.refCount-=1;if(r.refCount<0)throw new Error("invalid unref");if(r.refCount>0)return;e.close(r.fd,t);function t(e){if(e){r.emit("error",e);}else {r.emit("close");}}};r.inherits(u,n);function u(e,r){r=r||{};n.call(this,r);this.context=e;this.context.ref();this.start=r.start||0;this.endOffset=r.end;this.pos=this.start;}u.prototype._read=function(r){var t=this;var n=Math.min(t._readableState.highWaterMark,r);if(t.endOffset!=null){n=Math.min(n,t.endOffset-t.pos);}if(n<=0){t.push(null);this._cleanup();return}t.context.pend.go(function(r){var i=Buffer.allocUnsafe(n);e.read(t.context.fd,i,0,n,t.pos,function(e,n){if(e){t.destroy(e);}else if(n===0){t.push(null);t._cleanup();}else {t.pos+=n;t.push(i.slice(0,n));}r();});});};u.prototype._destroy=function(e,r){this._cleanup();r(e);};u.prototype._cleanup=function(){if(this.context!=null){this.context.unref();this.context=null;}};r.inherits(a,s);function a(e){s.call(this);this.refCount=0;this.buffer=e;}a.prototype.read=function(e,r,t,n,i){if(!(0<=r&&r<=e.length))throw new RangeError("offset outside buffer: 0 <= "+r+" <= "+e.length);if(n<0)throw new RangeError("position is negative: "+n);if(r+t>e.length){t=e.length-r;}if(n+t>this.buffer.length){t=this.buffer.length-n;}if(t<=0){setImmediate(function(){i(null,0);});return}this.buffer.copy(e,r,n,n+t);setImmediate(function(){i(null,t);});};a.prototype.createReadStream=function(e){e=e||{};var r=new i(e);r.start=e.start||0;r.endOffset=e.end;r.pos=r.endOffset||this.buffer.length;var t=this.buffer.slice(r.start,r.pos);var n=65536;var o=0;while(true){var s=o+n;if(s>=t.length){if(o<t.length){r.write(t.slice(o,t.length));}break}r.write(t.slice(o,s));o=s;}r.end();return r};a.prototype.ref=function(){this.refCount+=1;};a.prototype.unref=function(){this.refCount-=1;if(this.refCount<0){throw new Error("invalid unref")}};return fdSlicer}

var crc32_1;var hasRequiredCrc32;function requireCrc32(){if(hasRequiredCrc32)return crc32_1;hasRequiredCrc32=1;const r=new Int32Array([0,1996959894,3993919788,2567524794,124634137,1886057615,3915621685,2657392035,249268274,2044508324,3772115230,2547177864,162941995,2125561021,3887607047,2428444049,498536548,1789927666,4089016648,2227061214,450548861,1843258603,4107580753,2211677639,325883990,1684777152,4251122042,2321926636,335633487,1661365465,4195302755,2366115317,997073096,1281953886,3579855332,2724688242,1006888145,1258607687,3524101629,2768942443,901097722,1119000684,3686517206,2898065728,853044451,1172266101,3705015759,2882616665,651767980,1373503546,3369554304,3218104598,565507253,1454621731,3485111705,3099436303,671266974,1594198024,3322730930,2970347812,795835527,1483230225,3244367275,3060149565,1994146192,31158534,2563907772,4023717930,1907459465,112637215,2680153253,3904427059,2013776290,251722036,2517215374,3775830040,2137656763,141376813,2439277719,3865271297,1802195444,476864866,2238001368,4066508878,1812370925,453092731,2181625025,4111451223,1706088902,314042704,2344532202,4240017532,1658658271,366619977,2362670323,4224994405,1303535960,984961486,2747007092,3569037538,1256170817,1037604311,2765210733,3554079995,1131014506,879679996,2909243462,3663771856,1141124467,855842277,2852801631,3708648649,1342533948,654459306,3188396048,3373015174,1466479909,544179635,3110523913,3462522015,1591671054,702138776,2966460450,3352799412,1504918807,783551873,3082640443,3233442989,3988292384,2596254646,62317068,1957810842,3939845945,2647816111,81470997,1943803523,3814918930,2489596804,225274430,2053790376,3826175755,2466906013,167816743,2097651377,4027552580,2265490386,503444072,1762050814,4150417245,2154129355,426522225,1852507879,4275313526,2312317920,282753626,1742555852,4189708143,2394877945,397917763,1622183637,3604390888,2714866558,953729732,1340076626,3518719985,2797360999,1068828381,1219638859,3624741850,2936675148,906185462,1090812512,3747672003,2825379669,829329135,1181335161,3412177804,3160834842,628085408,1382605366,3423369109,3138078467,570562233,1426400815,3317316542,2998733608,733239954,1555261956,3268935591,3050360625,752459403,1541320221,2607071920,3965973030,1969922972,40735498,2617837225,3943577151,1913087877,83908371,2512341634,3803740692,2075208622,213261112,2463272603,3855990285,2094854071,198958881,2262029012,4057260610,1759359992,534414190,2176718541,4139329115,1873836001,414664567,2282248934,4279200368,1711684554,285281116,2405801727,4167216745,1634467795,376229701,2685067896,3608007406,1308918612,956543938,2808555105,3495958263,1231636301,1047427035,2932959818,3654703836,1088359270,936918e3,2847714899,3736837829,1202900863,817233897,3183342108,3401237130,1404277552,615818150,3134207493,3453421203,1423857449,601450431,3009837614,3294710456,1567103746,711928724,3020668471,3272380065,1510334235,755167117]);function e(e){let c=-1;for(let n of e){c=r[(c^n)&255]^c>>>8;}return (c^-1)>>>0}crc32_1=e;return crc32_1}

var hasRequiredYauzl;function requireYauzl(){if(hasRequiredYauzl)return yauzl$1;hasRequiredYauzl=1;var e=fs__default;var r=require$$1;var t=requireFdSlicer();var n=require$$6;var i=require$$4.EventEmitter;var o=require$$5.Transform;var a=require$$5.PassThrough;var s=require$$5.Writable;const l=typeof r.crc32==="function"?r.crc32:requireCrc32();yauzl$1.open=m;yauzl$1.fromFd=p;yauzl$1.fromBuffer=y;yauzl$1.fromRandomAccessReader=E;yauzl$1.openPromise=u;yauzl$1.fromFdPromise=f;yauzl$1.fromBufferPromise=d;yauzl$1.fromRandomAccessReaderPromise=c;yauzl$1.dosDateTimeToDate=L;yauzl$1.getFileNameLowLevel=S;yauzl$1.validateFileName=F;yauzl$1.parseExtraFields=I;yauzl$1.ZipFile=h;yauzl$1.Entry=z;yauzl$1.LocalFileHeader=g;yauzl$1.RandomAccessReader=U;function u(e,r){return new Promise((t,n)=>{m(e,{...r,lazyEntries:true},function(e,r){if(e)return n(e);t(r);});})}function f(e,r){return new Promise((t,n)=>{p(e,{...r,lazyEntries:true},function(e,r){if(e)return n(e);t(r);});})}function d(e,r){return new Promise((t,n)=>{y(e,{...r,lazyEntries:true},function(e,r){if(e)return n(e);t(r);});})}function c(e,r,t){return new Promise((n,i)=>{E(e,r,{...t,lazyEntries:true},function(e,r){if(e)return i(e);n(r);});})}function m(r,t,n){if(typeof t==="function"){n=t;t=null;}if(t==null)t={};if(t.autoClose==null)t.autoClose=true;if(t.lazyEntries==null)t.lazyEntries=false;if(t.decodeStrings==null)t.decodeStrings=true;if(t.validateEntrySizes==null)t.validateEntrySizes=true;if(t.strictFileNames==null)t.strictFileNames=false;if(n==null)n=D;e.open(r,"r",function(r,i){if(r)return n(r);p(i,t,function(r,t){if(r)e.close(i,D);n(r,t);});});}function p(r,n,i){if(typeof n==="function"){i=n;n=null;}if(n==null)n={};if(n.autoClose==null)n.autoClose=false;if(n.lazyEntries==null)n.lazyEntries=false;if(n.decodeStrings==null)n.decodeStrings=true;if(n.validateEntrySizes==null)n.validateEntrySizes=true;if(n.strictFileNames==null)n.strictFileNames=false;if(i==null)i=D;e.fstat(r,function(e,o){if(e)return i(e);var a=new t.FdSlicer(r);E(a,o.size,n,i);});}function y(e,r,n){if(typeof r==="function"){n=r;r=null;}if(r==null)r={};r.autoClose=false;if(r.lazyEntries==null)r.lazyEntries=false;if(r.decodeStrings==null)r.decodeStrings=true;if(r.validateEntrySizes==null)r.validateEntrySizes=true;if(r.strictFileNames==null)r.strictFileNames=false;var i=new t.BufferSlicer(e);E(i,e.length,r,n);}function E(e,r,t,n){if(typeof t==="function"){n=t;t=null;}if(t==null)t={};if(t.autoClose==null)t.autoClose=true;if(t.lazyEntries==null)t.lazyEntries=false;if(t.decodeStrings==null)t.decodeStrings=true;var i=!!t.decodeStrings;if(t.validateEntrySizes==null)t.validateEntrySizes=true;if(t.strictFileNames==null)t.strictFileNames=false;if(n==null)n=D;if(typeof r!=="number")throw new Error("expected totalSize parameter to be a number");if(r>Number.MAX_SAFE_INTEGER){throw new Error("zip file too large. only file sizes up to 2^52 are supported due to JavaScript's Number type being an IEEE 754 double.")}e.ref();var o=22;var a=20;var s=65535;var l=Math.min(a+o+s,r);var u=$(l);var f=r-u.length;x(e,u,0,l,f,function(s){if(s)return n(s);for(var f=l-o;f>=0;f-=1){if(u.readUInt32LE(f)!==101010256)continue;var d=u.subarray(f);var c=d.readUInt16LE(4);var m=d.readUInt16LE(10);var p=d.readUInt32LE(16);var y=d.readUInt16LE(20);var E=d.length-o;if(y!==E){return n(new Error("Invalid comment length. Expected: "+E+". Found: "+y+". Are there extra bytes at the end of the file? Or is the end of central dir signature `PK☺☻` in the comment?"))}var v=i?R(d.subarray(22),false):d.subarray(22);if(f-a>=0&&u.readUInt32LE(f-a)===117853008){var w=u.subarray(f-a,f-a+a);var z=N(w,8);var g=$(56);return x(e,g,0,g.length,z,function(o){if(o)return n(o);if(g.readUInt32LE(0)!==101075792){return n(new Error("invalid zip64 end of central directory record signature"))}c=g.readUInt32LE(16);if(c!==0){return n(new Error("multi-disk zip files are not supported: found disk number: "+c))}m=N(g,32);p=N(g,48);return n(null,new h(e,p,r,m,v,t.autoClose,t.lazyEntries,i,t.validateEntrySizes,t.strictFileNames))})}if(c!==0){return n(new Error("multi-disk zip files are not supported: found disk number: "+c))}return n(null,new h(e,p,r,m,v,t.autoClose,t.lazyEntries,i,t.validateEntrySizes,t.strictFileNames))}n(new Error("End of central directory record signature not found. Either not a zip file, or file is truncated."));});}n.inherits(h,i);function h(e,r,t,n,o,a,s,l,u,f){var d=this;i.call(d);d.reader=e;d.reader.on("error",function(e){w(d,e);});d.reader.once("close",function(){d.emit("close");});d.readEntryCursor=r;d.fileSize=t;d.entryCount=n;d.comment=o;d.entriesRead=0;d.autoClose=!!a;d.lazyEntries=!!s;d.decodeStrings=!!l;d.validateEntrySizes=!!u;d.strictFileNames=!!f;d.isOpen=true;d.emittedError=false;d.hasEachEntryBeenCalled=false;if(!d.lazyEntries)d._readEntry();}h.prototype.close=function(){if(!this.isOpen)return;this.isOpen=false;this.reader.unref();};function v(e,r){if(e.autoClose)e.close();w(e,r);}function w(e,r){if(e.emittedError)return;e.emittedError=true;e.emit("error",r);}h.prototype.readEntry=function(){if(!this.lazyEntries)throw new Error("readEntry() called without lazyEntries:true");this._readEntry();};h.prototype._readEntry=function(){var e=this;if(e.entryCount===e.entriesRead){setImmediate(function(){if(e.autoClose)e.close();if(e.emittedError)return;e.emit("end");});return}if(e.emittedError)return;var r=$(46);x(e.reader,r,0,r.length,e.readEntryCursor,function(t){if(t)return v(e,t);if(e.emittedError)return;var n=new z;var i=r.readUInt32LE(0);if(i!==33639248)return v(e,new Error("invalid central directory file header signature: 0x"+i.toString(16)));n.versionMadeBy=r.readUInt16LE(4);n.versionNeededToExtract=r.readUInt16LE(6);n.generalPurposeBitFlag=r.readUInt16LE(8);n.compressionMethod=r.readUInt16LE(10);n.lastModFileTime=r.readUInt16LE(12);n.lastModFileDate=r.readUInt16LE(14);n.crc32=r.readUInt32LE(16);n.compressedSize=r.readUInt32LE(20);n.uncompressedSize=r.readUInt32LE(24);n.fileNameLength=r.readUInt16LE(28);n.extraFieldLength=r.readUInt16LE(30);n.fileCommentLength=r.readUInt16LE(32);n.internalFileAttributes=r.readUInt16LE(36);n.externalFileAttributes=r.readUInt32LE(38);n.relativeOffsetOfLocalHeader=r.readUInt32LE(42);if(n.generalPurposeBitFlag&64)return v(e,new Error("strong encryption is not supported"));e.readEntryCursor+=46;r=$(n.fileNameLength+n.extraFieldLength+n.fileCommentLength);x(e.reader,r,0,r.length,e.readEntryCursor,function(t){if(t)return v(e,t);if(e.emittedError)return;n.fileNameRaw=r.subarray(0,n.fileNameLength);var i=n.fileNameLength+n.extraFieldLength;n.extraFieldRaw=r.subarray(n.fileNameLength,i);n.fileCommentRaw=r.subarray(i,i+n.fileCommentLength);try{n.extraFields=I(n.extraFieldRaw);}catch(t){return v(e,t)}if(e.decodeStrings){var o=(n.generalPurposeBitFlag&2048)!==0;n.fileComment=R(n.fileCommentRaw,o);n.fileName=S(n.generalPurposeBitFlag,n.fileNameRaw,n.extraFields,e.strictFileNames);var a=F(n.fileName);if(a!=null)return v(e,new Error(a))}else {n.fileComment=n.fileCommentRaw;n.fileName=n.fileNameRaw;}n.comment=n.fileComment;e.readEntryCursor+=r.length;e.entriesRead+=1;for(var s=0;s<n.extraFields.length;s++){var l=n.extraFields[s];if(l.id!==1)continue;var u=l.data;var f=0;if(n.uncompressedSize===4294967295){if(f+8>u.length){return v(e,new Error("zip64 extended information extra field does not include uncompressed size"))}n.uncompressedSize=N(u,f);f+=8;}if(n.compressedSize===4294967295){if(f+8>u.length){return v(e,new Error("zip64 extended information extra field does not include compressed size"))}n.compressedSize=N(u,f);f+=8;}if(n.relativeOffsetOfLocalHeader===4294967295){if(f+8>u.length){return v(e,new Error("zip64 extended information extra field does not include relative header offset"))}n.relativeOffsetOfLocalHeader=N(u,f);f+=8;}break}if(e.validateEntrySizes&&n.compressionMethod===0){var d=n.uncompressedSize;if(n.isEncrypted()){d+=12;}if(n.compressedSize!==d){var c="compressed/uncompressed size mismatch for stored file: "+n.compressedSize+" != "+n.uncompressedSize;return v(e,new Error(c))}}e.emit("entry",n);if(!e.lazyEntries)e._readEntry();});});};h.prototype.eachEntry=function(){const e=this;if(!e.lazyEntries)throw new Error("eachEntry() requires lazyEntries: true");if(e.hasEachEntryBeenCalled)throw new Error("eachEntry() must only be called once per ZipFile");e.hasEachEntryBeenCalled=true;let r=null;e.on("entry",n);e.on("end",i);e.on("error",o);function t(){e.removeListener("entry",n);e.removeListener("end",i);e.removeListener("error",o);if(e.autoClose)e.close();}function n(e){let{resolve:t}=r;r=null;t({value:e});}function i(){let{resolve:e}=r;r=null;t();e({done:true});}function o(e){let{reject:n}=r;r=null;t();n(e);}return {[Symbol.asyncIterator](){return this},next(){const t=new Promise((e,t)=>{if(r!=null)throw new Error("next() called before previous Promise was resolved.");r={resolve:e,reject:t};});e.readEntry();return t},return(e){t();return Promise.resolve({done:true,value:e})},throw(e){t();return Promise.reject(e)}}};h.prototype.openReadStream=function(e,r,t){var n=this;var i=0;var o=e.compressedSize;if(t==null){t=r;r=null;}if(r==null){r={};}else {if(r.decodeFileData===false){if(r.decrypt!=null){throw new Error("cannot use options.decrypt when options.decodeFileData === false")}if(r.decompress!=null){throw new Error("cannot use options.decompress when options.decodeFileData === false")}}else {if(r.decrypt!=null){if(!e.isEncrypted()){throw new Error("options.decrypt can only be specified for encrypted entries. See also option decodeFileData.")}if(r.decrypt!==false)throw new Error("invalid options.decrypt value: "+r.decrypt);if(e.isCompressed()){if(r.decompress!==false)throw new Error("entry is encrypted and compressed, and options.decompress !== false. See also option decodeFileData.")}}if(r.decompress!=null){if(!e.isCompressed()){throw new Error("options.decompress can only be specified for compressed entries. See also option decodeFileData.")}if(!(r.decompress===false||r.decompress===true)){throw new Error("invalid options.decompress value: "+r.decompress)}s=r.decompress;}}if(r.start!=null){i=r.start;if(i<0)throw new Error("options.start < 0");if(i>e.compressedSize)throw new Error("options.start > entry.compressedSize")}if(r.end!=null){o=r.end;if(o<0)throw new Error("options.end < 0");if(o>e.compressedSize)throw new Error("options.end > entry.compressedSize");if(o<i)throw new Error("options.end < options.start")}}var a=r.decodeFileData===false||(e.compressionMethod===0||e.compressionMethod===8&&r.decompress===false)&&(!e.isEncrypted()||r.decrypt===false);if(r.start!=null||r.end!=null){if(!a)throw new Error("start/end range require options.decodeFileData === false for non-trivial encoded entries.")}if(!n.isOpen)return t(new Error("closed"));if(e.isEncrypted()&&!a){if(r.decrypt!==false)return t(new Error("entry is encrypted, and options.decodeFileData !== false"))}var s;if(a){s=false;}else if(e.compressionMethod===8){s=r.decodeFileData!==true;}else {return t(new Error("unsupported compression method: "+e.compressionMethod))}n.readLocalFileHeader(e,{minimal:true},function(r,a){if(r)return t(r);n.openReadStreamLowLevel(a.fileDataStart,e.compressedSize,i,o,s,e.uncompressedSize,t);});};h.prototype.openReadStreamLowLevel=function(e,t,n,i,o,a,s){var l=this;var f=l.reader.createReadStream({start:e+n,end:e+i});var d=f;if(o){var c=false;var m=r.createInflateRaw();f.on("error",function(e){setImmediate(function(){if(!c)m.emit("error",e);});});f.pipe(m);if(l.validateEntrySizes){d=new C(a);m.on("error",function(e){setImmediate(function(){if(!c)d.emit("error",e);});});m.pipe(d);}else {d=m;}B(d,function(){c=true;if(m!==d)m.unpipe(d);f.unpipe(m);f.destroy();});}s(null,d);};h.prototype.readLocalFileHeader=function(e,r,t){var n=this;if(t==null){t=r;r=null;}if(r==null)r={};n.reader.ref();var i=$(30);x(n.reader,i,0,i.length,e.relativeOffsetOfLocalHeader,function(o){try{if(o)return t(o);var a=i.readUInt32LE(0);if(a!==67324752){return t(new Error("invalid local file header signature: 0x"+a.toString(16)))}var s=i.readUInt16LE(26);var l=i.readUInt16LE(28);var u=e.relativeOffsetOfLocalHeader+30+s+l;if(u+e.compressedSize>n.fileSize){return t(new Error("file data overflows file bounds: "+u+" + "+e.compressedSize+" > "+n.fileSize))}if(r.minimal){return t(null,{fileDataStart:u})}var f=new g;f.fileDataStart=u;f.versionNeededToExtract=i.readUInt16LE(4);f.generalPurposeBitFlag=i.readUInt16LE(6);f.compressionMethod=i.readUInt16LE(8);f.lastModFileTime=i.readUInt16LE(10);f.lastModFileDate=i.readUInt16LE(12);f.crc32=i.readUInt32LE(14);f.compressedSize=i.readUInt32LE(18);f.uncompressedSize=i.readUInt32LE(22);f.fileNameLength=s;f.extraFieldLength=l;i=$(s+l);n.reader.ref();x(n.reader,i,0,i.length,e.relativeOffsetOfLocalHeader+30,function(e){try{if(e)return t(e);f.fileName=i.subarray(0,s);f.extraField=i.subarray(s);return t(null,f)}finally{n.reader.unref();}});}finally{n.reader.unref();}});};h.prototype.openReadStreamPromise=function(e,r){return new Promise((t,n)=>{this.openReadStream(e,r,function(e,r){if(e)return n(e);t(r);});})};h.prototype.openReadStreamLowLevelPromise=function(e,r,t,n,i,o){return new Promise((a,s)=>{this.openReadStream(e,r,t,n,i,o,function(e,r){if(e)return s(e);a(r);});})};h.prototype.readLocalFileHeaderPromise=function(e,r){return new Promise((t,n)=>{this.readLocalFileHeader(e,r,function(e,r){if(e)return n(e);t(r);});})};function z(){}z.prototype.getLastModDate=function(e){if(e==null)e={};if(!e.forceDosFormat){for(var r=0;r<this.extraFields.length;r++){var t=this.extraFields[r];if(t.id===21589){var n=t.data;if(n.length<5)continue;var i=n[0];var o=1;if(!(i&o))continue;var a=n.readInt32LE(1);return new Date(a*1e3)}else if(t.id===10){var n=t.data;if(n.length!==32)continue;if(n.readUInt16LE(4)!==1)continue;if(n.readUInt16LE(6)!==24)continue;var s=n.readUInt32LE(8)+4294967296*n.readInt32LE(12);var l=s/1e4-116444736e5;return new Date(l)}}}return L(this.lastModFileDate,this.lastModFileTime,e.timezone)};z.prototype.canDecodeFileData=function(){return !this.isEncrypted()&&(this.compressionMethod===0||this.compressionMethod===8)};z.prototype.isEncrypted=function(){return (this.generalPurposeBitFlag&1)!==0};z.prototype.isCompressed=function(){return this.compressionMethod===8};function g(){}function L(e,r,t){var n=e&31;var i=(e>>5&15)-1;var o=(e>>9&127)+1980;var a=0;var s=(r&31)*2;var l=r>>5&63;var u=r>>11&31;if(t==null||t==="local"){return new Date(o,i,n,u,l,s,a)}else if(t==="UTC"){return new Date(Date.UTC(o,i,n,u,l,s,a))}else {throw new Error("unrecognized options.timezone: "+options.timezone)}}function S(e,r,t,n){var i=null;for(var o=0;o<t.length;o++){var a=t[o];if(a.id===28789){if(a.data.length<6){continue}if(a.data.readUInt8(0)!==1){continue}var s=a.data.readUInt32LE(1);if(l(r)!==s){continue}i=R(a.data.subarray(5),true);break}}if(i==null){var u=(e&2048)!==0;i=R(r,u);}if(!n){i=i.replace(/\\/g,"/");}return i}function F(e){if(e.indexOf("\\")!==-1){return "invalid characters in fileName: "+e}if(/^[a-zA-Z]:/.test(e)||/^\//.test(e)){return "absolute path: "+e}if(e.split("/").indexOf("..")!==-1){return "invalid relative path: "+e}return null}function I(e){var r=[];var t=0;while(t<e.length-3){var n=e.readUInt16LE(t+0);var i=e.readUInt16LE(t+2);var o=t+4;var a=o+i;if(a>e.length)throw new Error("extra field length exceeds extra field buffer size");var s=e.subarray(o,a);r.push({id:n,data:s});t=a;}return r}function x(e,r,t,n,i,o){if(n===0){return setImmediate(function(){o(null,$(0));})}e.read(r,t,n,i,function(e,r){if(e)return o(e);if(r<n){return o(new Error("unexpected EOF"))}o();});}n.inherits(C,o);function C(e){o.call(this);this.actualByteCount=0;this.expectedByteCount=e;}C.prototype._transform=function(e,r,t){this.actualByteCount+=e.length;if(this.actualByteCount>this.expectedByteCount){var n="too many bytes in the stream. expected "+this.expectedByteCount+". got at least "+this.actualByteCount;return t(new Error(n))}t(null,e);};C.prototype._flush=function(e){if(this.actualByteCount<this.expectedByteCount){var r="not enough bytes in the stream. expected "+this.expectedByteCount+". got only "+this.actualByteCount;return e(new Error(r))}e();};n.inherits(U,i);function U(){i.call(this);this.refCount=0;}U.prototype.ref=function(){this.refCount+=1;};U.prototype.unref=function(){var e=this;e.refCount-=1;if(e.refCount>0)return;if(e.refCount<0)throw new Error("invalid unref");e.close(r);function r(r){if(r)return e.emit("error",r);e.emit("close");}};U.prototype.createReadStream=function(e){if(e==null)e={};var r=e.start;var t=e.end;if(r===t){var n=new a;setImmediate(function(){n.end();});return n}var i=this._readStreamForRange(r,t);var o=false;var s=new _(this);i.on("error",function(e){setImmediate(function(){if(!o)s.emit("error",e);});});B(s,function(){i.unpipe(s);s.unref();i.destroy();});var l=new C(t-r);s.on("error",function(e){setImmediate(function(){if(!o)l.emit("error",e);});});B(l,function(){o=true;s.unpipe(l);s.destroy();});return i.pipe(s).pipe(l)};U.prototype._readStreamForRange=function(e,r){throw new Error("not implemented")};U.prototype.read=function(e,r,t,n,i){var o=this.createReadStream({start:n,end:n+t});var a=new s;var l=0;a._write=function(t,n,i){t.copy(e,r+l,0,t.length);l+=t.length;i();};a.on("finish",i);o.on("error",function(e){i(e);});o.pipe(a);};U.prototype.close=function(e){setImmediate(e);};n.inherits(_,a);function _(e){a.call(this);this.context=e;this.context.ref();this.unreffedYet=false;}_.prototype._flush=function(e){this.unref();e();};_.prototype.unref=function(e){if(this.unreffedYet)return;this.unreffedYet=true;this.context.unref();};var b="\0☺☻♥♦♣♠•◘○◙♂♀♪♫☼►◄↕‼¶§▬↨↑↓→←∟↔▲▼ !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~⌂ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■ ";function R(e,r){if(r){return e.toString("utf8")}else {var t="";for(var n=0;n<e.length;n++){t+=b[e[n]];}return t}}function N(e,r){var t=e.readUInt32LE(r);var n=e.readUInt32LE(r+4);return n*4294967296+t}var $;if(typeof Buffer.allocUnsafe==="function"){$=function(e){return Buffer.allocUnsafe(e)};}else {$=function(e){return new Buffer(e)};}function B(e,r){if(typeof e.destroy==="function"){e._destroy=function(e,t){r();if(t!=null)t(e);};}else {e.destroy=r;}}function D(e){if(e)throw e}return yauzl$1}

var yauzlExports = requireYauzl();
var yauzl = /*@__PURE__*/getDefaultExportFromCjs(yauzlExports);

class ArchiveRefused extends InputError {
    reason;
    constructor(reason) {
        super(`refused: ${reason}`);
        this.reason = reason;
        this.name = 'ArchiveRefused';
    }
}
const INFLATION_ALLOWANCE = 1024 * 1024;
const ENTRY_CONFLICTS = new Set(['EISDIR', 'ENOTDIR', 'EEXIST']);
function isEntryConflict(error) {
    return typeof error === 'object' && error !== null && 'code' in error && ENTRY_CONFLICTS.has(String(error.code));
}
async function openTarget(target) {
    try {
        await mkdir(path.dirname(target), { recursive: true });
        return await open(target, 'w');
    }
    catch (error) {
        if (isEntryConflict(error))
            return null;
        throw error;
    }
}
function unsafeEntryReason(name) {
    if (name.length === 0)
        return 'empty name';
    if (name.includes('\0'))
        return 'NUL in name';
    if (name.includes('\\'))
        return 'backslash in name';
    if (name.startsWith('/') || /^[a-zA-Z]:/.test(name))
        return 'absolute path';
    if (name.split('/').some((segment) => segment === '..'))
        return "'..' segment";
    return null;
}
function openZip(zipPath) {
    return new Promise((resolve, reject) => {
        yauzl.open(zipPath, { lazyEntries: true, decodeStrings: false, autoClose: true }, (err, zip) => err ? reject(archiveError(err)) : resolve(zip));
    });
}
function shownName(name) {
    return `'${visible(name.length > 200 ? `${name.slice(0, 200)}…` : name)}'`;
}
function isSystemError(error) {
    const code = error?.code;
    return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
function archiveError(error) {
    if (isSystemError(error))
        return error;
    if (/^End of central directory record signature not found/.test(error.message))
        return new ArchiveRefused('it is not a zip archive, or it was cut short');
    return new ArchiveRefused(`it is not a valid zip archive (${visible(error.message)})`);
}
function entryError(error, name) {
    if (error instanceof ArchiveRefused || !(error instanceof Error) || isSystemError(error))
        return error instanceof Error ? error : new Error(String(error));
    const more = /^too many bytes in the stream\. expected (\d+)/.exec(error.message);
    if (more)
        return new ArchiveRefused(`its entry ${shownName(name)} holds more bytes than its header declares (${more[1]})`);
    const fewer = /^not enough bytes in the stream\. expected (\d+)/.exec(error.message);
    if (fewer)
        return new ArchiveRefused(`its entry ${shownName(name)} holds fewer bytes than its header declares (${fewer[1]})`);
    return new ArchiveRefused(`its entry ${shownName(name)} cannot be read (${visible(error.message)})`);
}
function inflationGuard(name, compressedSize, ratio) {
    const limit = Math.max(INFLATION_ALLOWANCE, ratio * compressedSize);
    let inflated = 0;
    return new Transform({
        transform(chunk, _encoding, done) {
            inflated += chunk.length;
            if (inflated <= limit)
                return done(null, chunk);
            done(new ArchiveRefused(`its entry ${shownName(name)} inflates to more than ${ratio} times its compressed size (${formatBytes(compressedSize)}), stopped at ${formatBytes(limit)}`));
        },
    });
}
async function extractZipSafely(zipPath, destination, limits = {}) {
    const { maxBytes = Number.POSITIVE_INFINITY, maxInflation } = limits;
    const root = path.resolve(destination);
    await mkdir(root, { recursive: true });
    const zip = await openZip(zipPath);
    const result = { files: 0, refused: [], collided: [] };
    let declaredBytes = 0;
    await new Promise((resolve, reject) => {
        const fail = (error) => {
            zip.close();
            reject(error instanceof Error ? error : new Error(String(error)));
        };
        zip.on('error', (error) => fail(archiveError(error)));
        zip.on('end', () => resolve());
        zip.on('entry', (entry) => {
            const raw = entry.fileName;
            const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
            const reason = unsafeEntryReason(name);
            const target = path.resolve(root, name);
            const isDirectory = name.endsWith('/');
            const inside = target.startsWith(root + path.sep) || (isDirectory && target === root);
            const skip = (list) => {
                list.push(name);
                zip.readEntry();
            };
            if (reason !== null || !inside)
                return skip(result.refused);
            if (isDirectory) {
                mkdir(target, { recursive: true }).then(() => zip.readEntry(), (error) => (isEntryConflict(error) ? skip(result.collided) : fail(error)));
                return;
            }
            declaredBytes += entry.uncompressedSize;
            if (declaredBytes > maxBytes) {
                return fail(new ArchiveRefused(`its entries declare more than ${formatBytes(maxBytes)}, the most allowed`));
            }
            openTarget(target).then((handle) => {
                if (handle === null)
                    return skip(result.collided);
                zip.openReadStream(entry, (err, stream) => {
                    if (err) {
                        void handle.close();
                        return fail(entryError(err, name));
                    }
                    const written = maxInflation === undefined
                        ? pipeline(stream, handle.createWriteStream())
                        : pipeline(stream, inflationGuard(name, entry.compressedSize, maxInflation), handle.createWriteStream());
                    written.then(() => {
                        result.files++;
                        zip.readEntry();
                    }, (error) => void rm(target, { force: true }).finally(() => fail(entryError(error, name))));
                });
            }, fail);
        });
        zip.readEntry();
    });
    return result;
}

const DEFAULT_DOWNLOAD_CONCURRENCY = 8;
class ArtifactsFailed extends InputError {
    failed;
    where;
    constructor(message, failed, where) {
        super(message);
        this.failed = failed;
        this.where = where;
        this.name = 'ArtifactsFailed';
    }
}
async function downloadArtifacts(request, log = () => { }, warn = log) {
    const env = request.env ?? process.env;
    const policy = request.retry ?? DEFAULT_RETRY;
    const service = request.crossRun
        ? restService(request.crossRun, env, policy)
        : resultsService(env, policy);
    let retries = 0;
    const onRetry = (what, attempt, reason, delayMs) => {
        retries++;
        log(`${what}: attempt ${attempt} failed (${reason}); retrying in ${(delayMs / 1000).toFixed(1)} s`);
    };
    const started = Date.now();
    const selected = await selectArtifacts(service, request.patterns, onRetry);
    const failed = [];
    const tooBig = (a) => request.maxBytes !== undefined && a.size > request.maxBytes;
    for (const a of selected.filter(tooBig)) {
        failed.push({
            name: a.name,
            id: a.id,
            refused: true,
            reason: `it is ${formatBytes(a.size)}, more than the ${formatBytes(request.maxBytes ?? 0)} allowed`,
        });
    }
    const wanted = selected.filter((a) => !tooBig(a));
    await mkdir(request.dir, { recursive: true });
    const root = await realpath(request.dir);
    const staging = `${root}.zips`;
    await mkdir(staging, { recursive: true });
    const targets = folderNames(wanted);
    const concurrency = Math.max(1, Math.min(request.concurrency ?? DEFAULT_DOWNLOAD_CONCURRENCY, wanted.length));
    if (wanted.length > 0)
        log(`Downloading ${wanted.length} artifact(s) (${formatBytes(sum(wanted.map((a) => a.size)))}) from ${service.where}, ${concurrency} at a time`);
    const downloaded = [];
    let done = 0;
    let bytes = 0;
    const fetch = { service, policy, onRetry, request, warn };
    await forEachBounded(wanted, concurrency, async (artifact, index) => {
        const target = path.join(root, targets[index]);
        try {
            const { size, files } = await fetchArtifact(artifact, target, path.join(staging, `${artifact.id}.zip`), fetch);
            bytes += size;
            downloaded[index] = { name: artifact.name, id: artifact.id, path: target };
            log(`[${++done}/${wanted.length}] ${artifact.name} ${formatBytes(size)} (${files} file(s))`);
        }
        catch (error) {
            const refused = error instanceof ArchiveRefused;
            const reason = refused ? error.reason : error instanceof Error ? error.message : String(error);
            failed.push({ name: artifact.name, id: artifact.id, reason, refused });
            log(`[${++done}/${wanted.length}] ${artifact.name} FAILED: ${refused ? `refused: ${reason}` : reason}`);
        }
    });
    await rm(staging, { recursive: true, force: true });
    const seconds = (Date.now() - started) / 1000;
    const ok = downloaded.filter((a) => a !== undefined);
    log(`Downloaded ${ok.length} of ${selected.length} artifact(s), ${formatBytes(bytes)} in ${seconds.toFixed(1)} s ` +
        `(${concurrency} at a time, ${retries} retr${retries === 1 ? 'y' : 'ies'})`);
    reportFailed(failed, selected.length, service.where, request.missing ?? 'fail', warn);
    return { downloaded: ok, failed, retries, bytes };
}
async function selectArtifacts(service, patterns, onRetry) {
    const artifacts = await service.list(onRetry).catch((error) => {
        throw new InputError(`cannot list the artifacts of ${service.where}: ${error instanceof Error ? error.message : String(error)}`);
    });
    const matchers = patterns.map((p) => picomatch(p, { dot: true }));
    const selected = latestOfEachName(artifacts)
        .filter((a) => matchers.some((m) => m(a.name)))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    if (selected.length === 0) {
        const names = [...new Set(artifacts.map((a) => a.name))].sort();
        throw new InputError(`no artifact of ${service.where} matches ${patterns.map((p) => `'${p}'`).join(', ')}; ` +
            (names.length ? `it has: ${names.join(', ')}` : 'it has no artifacts (did the training job upload them?)'));
    }
    return selected;
}
async function fetchArtifact(artifact, target, zip, how) {
    const what = `artifact '${artifact.name}'`;
    const size = await withRetries(what, how.policy, how.onRetry, async (signal) => {
        const url = await how.service.zipUrl(artifact, how.onRetry);
        return streamToFile(url, zip, signal, how.policy.timeoutMs, what);
    });
    const { files, refused, collided } = await extractZipSafely(zip, target, {
        maxBytes: how.request.maxBytes,
        maxInflation: how.request.maxInflation,
    });
    await rm(zip, { force: true });
    if (refused.length > 0)
        how.warn(skippedMessage(artifact.name, refused, 'written outside the download folder'));
    if (collided.length > 0)
        how.warn(skippedMessage(artifact.name, collided, 'written over an earlier entry (a file and a folder of one name)'));
    return { size, files };
}
function reportFailed(failed, selected, where, missing, warn) {
    failed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (failed.length === 0)
        return;
    const list = failed.map((f) => `'${f.name}' (${f.refused ? `refused: ${f.reason}` : f.reason})`).join('; ');
    if (missing === 'fail') {
        const advice = failed.length < selected ? " Set 'missing-artifacts: warn' to gate the others." : '';
        throw new ArtifactsFailed(`${failed.length} of ${selected} artifact(s) of ${where} could not be downloaded: ${list}.${advice}`, failed, where);
    }
    warn(`${failed.length} of ${selected} artifact(s) missing, gated without them: ${list}`);
}
async function forEachBounded(items, limit, work) {
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const index = next++;
            await work(items[index], index);
        }
    };
    await Promise.all(Array.from({ length: limit }, worker));
}
function sum(values) {
    return values.reduce((a, b) => a + b, 0);
}
function folderNames(artifacts) {
    const used = new Set();
    return artifacts.map((artifact) => {
        let folder = safeDirName(artifact.name);
        if (used.has(folder))
            folder = `${folder}-${artifact.id}`;
        used.add(folder);
        return folder;
    });
}
const SKIPPED_NAMES_SHOWN = 20;
function skippedMessage(artifactName, names, why) {
    const shown = names.slice(0, SKIPPED_NAMES_SHOWN).map((name) => `'${name}'`);
    const more = names.length - shown.length;
    const what = names.length === 1 ? `entry ${shown[0]} would be` : `${names.length} entries would be`;
    const list = names.length === 1 ? '' : `: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
    return `artifact '${artifactName}': ${what} ${why}; skipped${list}`;
}
function safeDirName(name) {
    const cleaned = name.replace(/[\\/:*?"<>|\0]/g, '_').replace(/^\.+$/, '_');
    return cleaned || '_';
}

export { ArtifactsFailed, downloadArtifacts };
