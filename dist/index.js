import * as os from 'os';
import os__default, { EOL } from 'os';
import * as crypto from 'crypto';
import * as fs from 'fs';
import { promises, constants } from 'fs';
import 'path';
import 'string_decoder';
import 'events';
import 'child_process';
import 'assert';
import 'timers';
import { U as UsageError, f as failureText } from './chunks/errors.js';
import { parseMaxIncrease } from './chunks/thresholds.js';
import { S as SOURCES } from './chunks/evidence-sources.js';
import { D as DEFAULT_HISTORY_SIZE, s as splitList, M as MAX_HISTORY_SIZE } from './chunks/limits.js';
import 'node:fs/promises';
import 'node:path';
import './chunks/reader.js';
import './chunks/_commonjsHelpers.js';
import 'node:crypto';
import './chunks/roll-up.js';
import './chunks/index.js';
import './chunks/oom-cause.js';
import './chunks/keys.js';
import 'node:fs';
import 'url';
import 'module';

function toCommandValue(e){if(e===null||e===undefined){return ""}else if(typeof e==="string"||e instanceof String){return e}return JSON.stringify(e)}function toCommandProperties(e){if(!Object.keys(e).length){return {}}return {title:e.title,file:e.file,line:e.startLine,endLine:e.endLine,col:e.startColumn,endColumn:e.endColumn}}

function issueCommand(e,t,s){const r=new Command(e,t,s);process.stdout.write(r.toString()+os.EOL);}const CMD_STRING="::";class Command{constructor(e,t,s){if(!e){e="missing.command";}this.command=e;this.properties=t;this.message=s;}toString(){let e=CMD_STRING+this.command;if(this.properties&&Object.keys(this.properties).length>0){e+=" ";let t=true;for(const s in this.properties){if(this.properties.hasOwnProperty(s)){const r=this.properties[s];if(r){if(t){t=false;}else {e+=",";}e+=`${s}=${escapeProperty(r)}`;}}}}e+=`${CMD_STRING}${escapeData(this.message)}`;return e}}function escapeData(e){return toCommandValue(e).replace(/%/g,"%25").replace(/\r/g,"%0D").replace(/\n/g,"%0A")}function escapeProperty(e){return toCommandValue(e).replace(/%/g,"%25").replace(/\r/g,"%0D").replace(/\n/g,"%0A").replace(/:/g,"%3A").replace(/,/g,"%2C")}

function issueFileCommand(o,e){const n=process.env[`GITHUB_${o}`];if(!n){throw new Error(`Unable to find environment variable for file command ${o}`)}if(!fs.existsSync(n)){throw new Error(`Missing file at path: ${n}`)}fs.appendFileSync(n,`${toCommandValue(e)}${os.EOL}`,{encoding:"utf8"});}function prepareKeyValueMessage(o,e){const n=`ghadelimiter_${crypto.randomUUID()}`;const t=toCommandValue(e);if(o.includes(n)){throw new Error(`Unexpected input: name should not contain the delimiter "${n}"`)}if(t.includes(n)){throw new Error(`Unexpected input: value should not contain the delimiter "${n}"`)}return `${o}<<${n}${os.EOL}${t}${os.EOL}${n}`}

undefined&&undefined.__awaiter||function(e,t,n,r){function o(e){return e instanceof n?e:new n(function(t){t(e);})}return new(n||(n=Promise))(function(n,i){function a(e){try{s(r.next(e));}catch(e){i(e);}}function c(e){try{s(r["throw"](e));}catch(e){i(e);}}function s(e){e.done?n(e.value):o(e.value).then(a,c);}s((r=r.apply(e,t||[])).next());})};

var __awaiter=undefined&&undefined.__awaiter||function(t,r,s,a){function e(t){return t instanceof s?t:new s(function(r){r(t);})}return new(s||(s=Promise))(function(s,i){function n(t){try{d(a.next(t));}catch(t){i(t);}}function o(t){try{d(a["throw"](t));}catch(t){i(t);}}function d(t){t.done?s(t.value):e(t.value).then(n,o);}d((a=a.apply(t,r||[])).next());})};const{access:access,appendFile:appendFile,writeFile:writeFile}=promises;const SUMMARY_ENV_VAR="GITHUB_STEP_SUMMARY";class Summary{constructor(){this._buffer="";}filePath(){return __awaiter(this,void 0,void 0,function*(){if(this._filePath){return this._filePath}const t=process.env[SUMMARY_ENV_VAR];if(!t){throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`)}try{yield access(t,constants.R_OK|constants.W_OK);}catch(r){throw new Error(`Unable to access summary file: '${t}'. Check if the file has correct read/write permissions.`)}this._filePath=t;return this._filePath})}wrap(t,r,s={}){const a=Object.entries(s).map(([t,r])=>` ${t}="${r}"`).join("");if(!r){return `<${t}${a}>`}return `<${t}${a}>${r}</${t}>`}write(t){return __awaiter(this,void 0,void 0,function*(){const r=!!(t===null||t===void 0?void 0:t.overwrite);const s=yield this.filePath();const a=r?writeFile:appendFile;yield a(s,this._buffer,{encoding:"utf8"});return this.emptyBuffer()})}clear(){return __awaiter(this,void 0,void 0,function*(){return this.emptyBuffer().write({overwrite:true})})}stringify(){return this._buffer}isEmptyBuffer(){return this._buffer.length===0}emptyBuffer(){this._buffer="";return this}addRaw(t,r=false){this._buffer+=t;return r?this.addEOL():this}addEOL(){return this.addRaw(EOL)}addCodeBlock(t,r){const s=Object.assign({},r&&{lang:r});const a=this.wrap("pre",this.wrap("code",t),s);return this.addRaw(a).addEOL()}addList(t,r=false){const s=r?"ol":"ul";const a=t.map(t=>this.wrap("li",t)).join("");const e=this.wrap(s,a);return this.addRaw(e).addEOL()}addTable(t){const r=t.map(t=>{const r=t.map(t=>{if(typeof t==="string"){return this.wrap("td",t)}const{header:r,data:s,colspan:a,rowspan:e}=t;const i=r?"th":"td";const n=Object.assign(Object.assign({},a&&{colspan:a}),e&&{rowspan:e});return this.wrap(i,s,n)}).join("");return this.wrap("tr",r)}).join("");const s=this.wrap("table",r);return this.addRaw(s).addEOL()}addDetails(t,r){const s=this.wrap("details",this.wrap("summary",t)+r);return this.addRaw(s).addEOL()}addImage(t,r,s){const{width:a,height:e}=s||{};const i=Object.assign(Object.assign({},a&&{width:a}),e&&{height:e});const n=this.wrap("img",null,Object.assign({src:t,alt:r},i));return this.addRaw(n).addEOL()}addHeading(t,r){const s=`h${r}`;const a=["h1","h2","h3","h4","h5","h6"].includes(s)?s:"h1";const e=this.wrap(a,t);return this.addRaw(e).addEOL()}addSeparator(){const t=this.wrap("hr",null);return this.addRaw(t).addEOL()}addBreak(){const t=this.wrap("br",null);return this.addRaw(t).addEOL()}addQuote(t,r){const s=Object.assign({},r&&{cite:r});const a=this.wrap("blockquote",t,s);return this.addRaw(a).addEOL()}addLink(t,r){const s=this.wrap("a",t,{href:r});return this.addRaw(s).addEOL()}}const _summary=new Summary;const summary=_summary;

undefined&&undefined.__awaiter||function(e,t,r,i){function n(e){return e instanceof r?e:new r(function(t){t(e);})}return new(r||(r=Promise))(function(r,o){function s(e){try{c(i.next(e));}catch(e){o(e);}}function a(e){try{c(i["throw"](e));}catch(e){o(e);}}function c(e){e.done?r(e.value):n(e.value).then(s,a);}c((i=i.apply(e,t||[])).next());})};const{chmod:chmod,copyFile:copyFile,lstat:lstat,mkdir:mkdir,open:open,readdir:readdir,rename:rename,rm:rm,rmdir:rmdir,stat:stat,symlink:symlink,unlink:unlink}=fs.promises;process.platform==="win32";fs.constants.O_RDONLY;

undefined&&undefined.__awaiter||function(i,e,t,o){function r(i){return i instanceof t?i:new t(function(e){e(i);})}return new(t||(t=Promise))(function(t,n){function l(i){try{s(o.next(i));}catch(i){n(i);}}function c(i){try{s(o["throw"](i));}catch(i){n(i);}}function s(i){i.done?t(i.value):r(i.value).then(l,c);}s((o=o.apply(i,e||[])).next());})};

undefined&&undefined.__awaiter||function(t,e,s,i){function o(t){return t instanceof s?t:new s(function(e){e(t);})}return new(s||(s=Promise))(function(s,r){function n(t){try{l(i.next(t));}catch(t){r(t);}}function h(t){try{l(i["throw"](t));}catch(t){r(t);}}function l(t){t.done?s(t.value):o(t.value).then(n,h);}l((i=i.apply(t,e||[])).next());})};process.platform==="win32";

undefined&&undefined.__awaiter||function(t,n,e,o){function r(t){return t instanceof e?t:new e(function(n){n(t);})}return new(e||(e=Promise))(function(e,i){function c(t){try{u(o.next(t));}catch(t){i(t);}}function s(t){try{u(o["throw"](t));}catch(t){i(t);}}function u(t){t.done?e(t.value):r(t.value).then(c,s);}u((o=o.apply(t,n||[])).next());})};

undefined&&undefined.__awaiter||function(t,n,e,i){function o(t){return t instanceof e?t:new e(function(n){n(t);})}return new(e||(e=Promise))(function(e,s){function r(t){try{a(i.next(t));}catch(t){s(t);}}function c(t){try{a(i["throw"](t));}catch(t){s(t);}}function a(t){t.done?e(t.value):o(t.value).then(r,c);}a((i=i.apply(t,n||[])).next());})};os__default.platform();os__default.arch();

undefined&&undefined.__awaiter||function(e,t,o,r){function n(e){return e instanceof o?e:new o(function(t){t(e);})}return new(o||(o=Promise))(function(o,s){function i(e){try{a(r.next(e));}catch(e){s(e);}}function u(e){try{a(r["throw"](e));}catch(e){s(e);}}function a(e){e.done?o(e.value):n(e.value).then(i,u);}a((r=r.apply(e,t||[])).next());})};var ExitCode;(function(e){e[e["Success"]=0]="Success";e[e["Failure"]=1]="Failure";})(ExitCode||(ExitCode={}));function setSecret(e){issueCommand("add-mask",{},e);}function getInput(e,t){const o=process.env[`INPUT_${e.replace(/ /g,"_").toUpperCase()}`]||"";return o.trim()}function setOutput(e,t){const o=process.env["GITHUB_OUTPUT"]||"";if(o){return issueFileCommand("OUTPUT",prepareKeyValueMessage(e,t))}process.stdout.write(os.EOL);issueCommand("set-output",{name:e},toCommandValue(t));}function setFailed(e){process.exitCode=ExitCode.Failure;error(e);}function isDebug(){return process.env["RUNNER_DEBUG"]==="1"}function debug(e){issueCommand("debug",{},e);}function error(e,t={}){issueCommand("error",toCommandProperties(t),e instanceof Error?e.toString():e);}function warning(e,t={}){issueCommand("warning",toCommandProperties(t),e instanceof Error?e.toString():e);}function notice(e,t={}){issueCommand("notice",toCommandProperties(t),e instanceof Error?e.toString():e);}function info(e){process.stdout.write(e+os.EOL);}

function oneOf(name, value, allowed) {
    if (allowed.includes(value))
        return value;
    throw new UsageError(`'${name}' must be one of ${allowed.map((a) => `'${a}'`).join(', ')}, got '${value}'`);
}
function bool(name, value) {
    if (/^(true|yes|1)$/i.test(value))
        return true;
    if (/^(false|no|0)$/i.test(value))
        return false;
    throw new UsageError(`'${name}' must be true or false, got '${value}'`);
}
function parseRunId(value) {
    if (value === '')
        return undefined;
    if (!/^\d+$/.test(value))
        throw new UsageError(`'run-id' must be a workflow run id (digits), got '${value}'`);
    return Number(value);
}
function parseRepository(value) {
    if (value === '')
        return undefined;
    const m = /^([\w.-]+)\/([\w.-]+)$/.exec(value);
    if (!m)
        throw new UsageError(`'repository' must look like owner/name, got '${value}'`);
    return { owner: m[1], repo: m[2] };
}
function parseConcurrency(value) {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64) {
        throw new UsageError(`'download-concurrency' must be a whole number from 1 to 64, got '${value}'`);
    }
    return Number(value);
}
function parseReportPath(input, example, value) {
    const file = value.trim();
    if (file === '')
        return undefined;
    if (/[\r\n]/.test(file) || /[\\/]$/.test(file)) {
        throw new UsageError(`'${input}' must be one file path such as ${example}, got '${value}'`);
    }
    return file;
}
function parseEvents(value) {
    const events = splitList(value);
    const bad = events.find((e) => !/^[a-z_]{1,50}$/.test(e));
    if (bad !== undefined)
        throw new UsageError(`'allow-update-on' must list event names such as issue_comment, got '${bad}'`);
    return events;
}
function parseBranch(value) {
    const ok = /^[A-Za-z0-9._/-]{1,200}$/.test(value) &&
        !value.startsWith('-') &&
        !value.startsWith('/') &&
        !value.endsWith('/') &&
        !value.endsWith('.') &&
        !value.endsWith('.lock') &&
        !value.includes('..') &&
        !value.includes('//') &&
        !value.split('/').some((part) => part.startsWith('.'));
    if (!ok)
        throw new UsageError(`'history-branch' must be a branch name such as memory-gate-history, got '${value}'`);
    return value;
}
function parseHistorySize(value) {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_HISTORY_SIZE)
        throw new UsageError(`'history-size' must be a whole number from 1 to ${MAX_HISTORY_SIZE}, got '${value}'`);
    return Number(value);
}
function checkedMaxIncrease(value) {
    if (value === '')
        return undefined;
    parseMaxIncrease(value);
    return value;
}
function readInputs(get = (name) => getInput(name)) {
    const commentKey = get('comment-key') || 'default';
    if (!/^[\w.-]{1,64}$/.test(commentKey)) {
        throw new UsageError(`'comment-key' may hold letters, digits, '.', '_' and '-' (1 to 64), got '${commentKey}'`);
    }
    return {
        evidence: Object.fromEntries(SOURCES.map((source) => [source.name, splitList(get(source.input))])),
        artifacts: splitList(get('artifacts')),
        runId: parseRunId(get('run-id')),
        repository: parseRepository(get('repository')),
        token: get('github-token'),
        baseline: get('baseline') || 'baselines/memory-baseline.json',
        config: get('config') || undefined,
        maxIncrease: checkedMaxIncrease(get('max-increase')),
        mode: oneOf('mode', get('mode') || 'check', ['check', 'update', 'comment', 'snapshot']),
        comment: oneOf('comment', get('comment') || 'on-change', ['on-change', 'always', 'never']),
        commentKey,
        failJob: bool('fail-job', get('fail-job') || 'true'),
        updateStrategy: oneOf('update-strategy', get('update-strategy') || 'pull-request', [
            'pull-request',
            'commit',
            'write',
        ]),
        prune: bool('prune', get('prune') || 'false'),
        reportArtifact: get('report-artifact') || 'memory-gate-report',
        htmlReport: parseReportPath('html-report', 'memory-gate.html', get('html-report')),
        junitReport: parseReportPath('junit-report', 'memory-gate.junit.xml', get('junit-report')),
        allowUpdateOn: parseEvents(get('allow-update-on')),
        downloadConcurrency: parseConcurrency(get('download-concurrency') || '8'),
        missingArtifacts: oneOf('missing-artifacts', get('missing-artifacts') || 'fail', ['fail', 'warn']),
        collectEnvironment: bool('collect-environment', get('collect-environment') || 'false'),
        environment: get('environment')
            .split(/\r?\n/)
            .map((line) => line.trim())
            .filter((line) => line !== ''),
        history: bool('history', get('history') || 'true'),
        historyBranch: parseBranch(get('history-branch') || 'memory-gate-history'),
        historySize: parseHistorySize(get('history-size') || String(DEFAULT_HISTORY_SIZE)),
    };
}

function debugLogging() {
    return isDebug() || process.env.ACTIONS_STEP_DEBUG === 'true';
}
async function run() {
    const token = getInput('github-token');
    if (token)
        setSecret(token);
    try {
        const inputs = readInputs();
        if (inputs.mode === 'comment')
            await (await import('./action/comment.js')).runCommentMode(inputs);
        else if (inputs.mode === 'update')
            await (await import('./action/update.js')).runUpdateMode(inputs);
        else if (inputs.mode === 'snapshot')
            await (await import('./action/snapshot.js')).runSnapshotMode(inputs);
        else
            await (await import('./action/check.js')).runCheckMode(inputs);
    }
    catch (error) {
        const [line, ...stack] = failureText(error, debugLogging()).split('\n');
        setFailed(line ?? '');
        if (stack.length > 0)
            info(stack.join('\n'));
    }
}

void run();

export { setOutput as a, setFailed as b, debug as d, error as e, info as i, notice as n, summary as s, warning as w };
