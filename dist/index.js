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
import { readFile, mkdir as mkdir$1, writeFile as writeFile$1 } from 'node:fs/promises';
import os$1 from 'node:os';
import path from 'node:path';
import { i as splitList, j as isCountEntry, a as formatEntryDelta, e as entryReason, k as glob, d as resolveInputs, g as describeSearches, h as collectSnapshot } from './chunks/local.js';
import { U as UsageError, I as InputError } from './chunks/snapshot.js';
import { loadBaseline, parseBaseline, mergeBaseline, serializeBaseline, writeBaselineAtomic } from './chunks/baseline.js';
import { runGate } from './chunks/run-gate.js';
import { existsSync, readFileSync } from 'node:fs';
import { renderBaselineChanges } from './chunks/baseline-changes.js';
import { parseReportJson, renderJsonReport } from './chunks/json.js';
import { renderMarkdown } from './chunks/markdown.js';
import 'node:worker_threads';
import 'url';
import 'module';
import 'node:crypto';
import './chunks/json-schema.js';
import './chunks/chart.js';

// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}

/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + os.EOL);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}

// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
function issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!fs.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    fs.appendFileSync(filePath, `${toCommandValue(message)}${os.EOL}`, {
        encoding: 'utf8'
    });
}
function prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
    const convertedValue = toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${os.EOL}${convertedValue}${os.EOL}${delimiter}`;
}

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};

var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
const { access, appendFile, writeFile } = promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, constants.R_OK | constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return __awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return __awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
const summary = _summary;

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
const { chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink } = fs.promises;
// export const {open} = 'fs'
process.platform === 'win32';
fs.constants.O_RDONLY;

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
/* eslint-disable @typescript-eslint/unbound-method */
process.platform === 'win32';

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
os__default.platform();
os__default.arch();

(undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};
/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function setSecret(secret) {
    issueCommand('add-mask', {}, secret);
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    return val.trim();
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
    }
    process.stdout.write(os.EOL);
    issueCommand('set-output', { name }, toCommandValue(value));
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function debug(message) {
    issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    issueCommand('error', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    issueCommand('warning', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info(message) {
    process.stdout.write(message + os.EOL);
}

// Every Action input, read in one place into one typed object; errors name the input.
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
function parseHtmlReport(value) {
    const file = value.trim();
    if (file === '')
        return undefined;
    if (/[\r\n]/.test(file) || /[\\/]$/.test(file)) {
        throw new UsageError(`'html-report' must be one file path such as memory-gate.html, got '${value}'`);
    }
    return file;
}
/** Reads and validates every input. `get` is injectable so tests can feed inputs without the environment. */
function readInputs(get = (name) => getInput(name)) {
    const commentKey = get('comment-key') || 'default';
    if (!/^[\w.-]{1,64}$/.test(commentKey)) {
        throw new UsageError(`'comment-key' may hold letters, digits, '.', '_' and '-' (1 to 64), got '${commentKey}'`);
    }
    return {
        plog: splitList(get('plog')),
        memoryCompare: splitList(get('memory-compare')),
        artifacts: splitList(get('artifacts')),
        runId: parseRunId(get('run-id')),
        repository: parseRepository(get('repository')),
        token: get('github-token'),
        baseline: get('baseline') || 'baselines/memory-baseline.json',
        config: get('config') || undefined,
        maxIncrease: get('max-increase') || undefined,
        mode: oneOf('mode', get('mode') || 'check', ['check', 'update', 'comment']),
        comment: oneOf('comment', get('comment') || 'on-change', ['on-change', 'always', 'never']),
        commentKey,
        failJob: bool('fail-job', get('fail-job') || 'true'),
        updateStrategy: oneOf('update-strategy', get('update-strategy') || 'pull-request', ['pull-request', 'commit', 'write']),
        prune: bool('prune', get('prune') || 'false'),
        reportArtifact: get('report-artifact') || 'memory-gate-report',
        htmlReport: parseHtmlReport(get('html-report')),
    };
}

/** One line a reviewer can act on: exact values with their unit, the rule or the finding's explanation. */
function annotationText(e) {
    const unit = isCountEntry(e) ? '' : ' bytes';
    const values = e.baseline !== null && e.current !== null
        ? `${e.baseline} → ${e.current}${unit} (${formatEntryDelta(e, e.current - e.baseline)})`
        : `${e.current ?? e.baseline}${unit}${e.current === null ? ' in the baseline only' : e.baseline === null ? ', no baseline' : ''}`;
    const { rule, note } = entryReason(e);
    const why = [rule ? `rule ${rule}` : '', note ?? ''].filter(Boolean).join('; ');
    return `${e.kind} ${e.key}: ${e.status}, ${values}${why ? ` [${why}]` : ''}`;
}

// The workflow run's context, read from the environment as @actions/github's `context` does, without loading the GitHub
// client: check mode with no token must not pay for undici and Octokit at start-up.
let cached;
function workflowContext() {
    if (cached)
        return cached;
    let payload = {};
    const eventPath = process.env.GITHUB_EVENT_PATH;
    if (eventPath) {
        if (existsSync(eventPath)) {
            const parsed = JSON.parse(readFileSync(eventPath, 'utf8'));
            if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
                payload = parsed;
        }
        else {
            process.stdout.write(`GITHUB_EVENT_PATH ${eventPath} does not exist\n`);
        }
    }
    cached = {
        payload,
        eventName: process.env.GITHUB_EVENT_NAME ?? '',
        sha: process.env.GITHUB_SHA ?? '',
        ref: process.env.GITHUB_REF ?? '',
        runId: Number.parseInt(process.env.GITHUB_RUN_ID ?? '', 10),
        serverUrl: process.env.GITHUB_SERVER_URL ?? 'https://github.com',
        apiUrl: process.env.GITHUB_API_URL ?? 'https://api.github.com',
        get repo() {
            if (process.env.GITHUB_REPOSITORY) {
                const [owner, repo] = process.env.GITHUB_REPOSITORY.split('/');
                return { owner: owner, repo: repo };
            }
            const { repository } = payload;
            if (typeof repository?.owner?.login === 'string' && typeof repository.name === 'string') {
                return { owner: repository.owner.login, repo: repository.name };
            }
            throw new Error("context.repo requires a GITHUB_REPOSITORY environment variable like 'owner/repo'");
        },
    };
    return cached;
}
/** Status of an Octokit RequestError, without trusting its shape. */
function httpStatus(error) {
    if (typeof error === 'object' && error !== null && 'status' in error) {
        const status = error.status;
        if (typeof status === 'number')
            return status;
    }
    return undefined;
}
function errorMessage(error) {
    return error instanceof Error ? error.message : String(error);
}

// The Action: inputs → sources → snapshot → gate → summary, annotations, sticky comment, outputs; or a baseline update.
/** GitHub's limits: 65,536 characters for a comment body, 1 MiB for a step summary. */
const COMMENT_LIMIT = 65_536;
const SUMMARY_LIMIT = 1024 * 1024;
/** An untrusted report artifact larger than this is refused: the schema's 200,000 entries fit well under it. */
const REPORT_ARTIFACT_LIMIT = 256 * 1024 * 1024;
/** Malformed records shown as warnings, of the 10 warning annotations GitHub keeps per step. */
const SKIPPED_RECORD_WARNINGS = 5;
async function run() {
    try {
        const inputs = readInputs();
        if (inputs.mode === 'comment')
            await runCommentMode(inputs);
        else if (inputs.mode === 'update')
            await runUpdateMode(inputs);
        else
            await runCheckMode(inputs);
    }
    catch (error) {
        if (error instanceof UsageError || error instanceof InputError)
            setFailed(error.message);
        else
            setFailed(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
}
function workDir() {
    return path.join(process.env.RUNNER_TEMP || os$1.tmpdir(), 'ascend-memory-gate');
}
function thisRepo() {
    const { owner, repo } = workflowContext().repo;
    return { owner, repo };
}
/** Downloads the artifacts when asked, then resolves plog and memory_compare inputs into one snapshot. */
async function collectInputs(inputs) {
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    let root = workspace;
    let plogSpecs = inputs.plog;
    let compareSpecs = inputs.memoryCompare;
    if (inputs.artifacts.length > 0) {
        root = path.join(workDir(), 'artifacts');
        const repository = inputs.repository ?? thisRepo();
        const crossRun = inputs.runId !== undefined && isOtherRun(inputs)
            ? { runId: inputs.runId, owner: repository.owner, repo: repository.repo, token: inputs.token }
            : undefined;
        // Loaded only when needed: the artifact client is most of the bundle and of the start-up time.
        const { downloadArtifacts } = await import('./chunks/artifacts.js');
        await downloadArtifacts({ patterns: inputs.artifacts, crossRun, dir: root }, (m) => info(m), (m) => warning(m));
        // Nothing named: search everything that was downloaded.
        if (plogSpecs.length === 0 && compareSpecs.length === 0) {
            plogSpecs = ['.'];
            compareSpecs = ['.'];
        }
    }
    else if (plogSpecs.length === 0 && compareSpecs.length === 0) {
        throw new UsageError("set 'plog' and/or 'memory-compare' (paths in the workspace), or 'artifacts' to download them");
    }
    const plog = await resolveInputs(plogSpecs, 'plog', root);
    const compare = await resolveInputs(compareSpecs, 'compare', root);
    const searched = describeSearches(plogSpecs, compareSpecs);
    info(`Parsing ${plog.length} plog file(s) and ${compare.length} memory_compare file(s)`);
    const collected = await collectSnapshot({ plog, compare, searched });
    // A few examples, not one per record: GitHub keeps 10 warning annotations per step, and the verdict's warnings come later.
    const examples = collected.skippedRecords.slice(0, SKIPPED_RECORD_WARNINGS);
    for (const r of examples)
        warning(`${r.file}:${r.line}: ${r.reason} (skipped)`);
    const more = collected.snapshot.meta.skipped - examples.length;
    if (more > 0)
        warning(`${more} more malformed record(s) skipped`);
    return collected;
}
/** A workflow run's page: this run's by default. */
function runUrl(runId = workflowContext().runId, repo = thisRepo()) {
    return `${workflowContext().serverUrl}/${repo.owner}/${repo.repo}/actions/runs/${runId}`;
}
async function writeOutputs(report, markdown) {
    const dir = workDir();
    await mkdir$1(dir, { recursive: true });
    const reportPath = path.join(dir, 'report.json');
    const markdownPath = path.join(dir, 'report.md');
    await writeFile$1(reportPath, renderJsonReport(report));
    await writeFile$1(markdownPath, markdown);
    const failing = report.entries.filter((e) => e.severity === 'fail').length;
    setOutput('result', report.result);
    setOutput('regressions', String(failing));
    setOutput('report', reportPath);
    setOutput('markdown', markdownPath);
    return { reportPath, markdownPath };
}
/** Writes the self-contained HTML report where 'html-report' says (relative to the workspace), creating its folder. */
async function writeHtmlReport(inputs, report) {
    if (inputs.htmlReport === undefined)
        return;
    const file = path.resolve(process.env.GITHUB_WORKSPACE || process.cwd(), inputs.htmlReport);
    try {
        await mkdir$1(path.dirname(file), { recursive: true });
        const { renderHtml } = await import('./chunks/html.js');
        await writeFile$1(file, renderHtml(report));
    }
    catch (error) {
        throw new UsageError(`'html-report': cannot write ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    info(`Wrote the HTML report to ${file}`);
}
/** GitHub keeps at most 10 error (and 10 warning) annotations per step and silently drops the rest. */
const ANNOTATIONS_PER_STEP = 10;
/**
 * One annotation per failing key, within GitHub's 10 error annotations per step. `reserved` of them are kept for
 * what comes after (the job's one-line failure reason); when the keys do not fit, the last one left says how many
 * more there are. The summary has them all.
 */
function annotate(report, reserved) {
    const failing = report.entries.filter((e) => e.severity === 'fail');
    const budget = ANNOTATIONS_PER_STEP - reserved;
    const shown = failing.length <= budget ? failing : failing.slice(0, Math.max(0, budget - 1));
    for (const e of shown)
        error(annotationText(e), { title: `Memory gate: ${e.key} ${e.status}` });
    if (failing.length > shown.length) {
        error(`${failing.length - shown.length} more failing key(s): see the job summary`, { title: 'Memory gate' });
    }
}
function failureReason(report) {
    const failing = report.entries.filter((e) => e.severity === 'fail');
    const counts = new Map();
    for (const e of failing)
        counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
    const parts = [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
    const first = failing[0];
    return `Memory gate failed: ${parts}${first ? ` (first: ${first.key})` : ''}`;
}
/** The PR this run belongs to, when it is a pull_request run. */
function pullRequestNumber() {
    const pr = workflowContext().payload.pull_request;
    return typeof pr?.number === 'number' ? pr.number : undefined;
}
/** Posts the sticky comment; any failure is a warning and never changes the verdict. */
async function postComment(inputs, octokit, issueNumber, report, repo, sourceRunUrl) {
    if (inputs.comment === 'never')
        return;
    if (issueNumber === undefined) {
        info('No pull request for this run: no comment posted');
        return;
    }
    if (!octokit) {
        warning("No 'github-token': the PR comment was not posted");
        return;
    }
    const { commentMarker, upsertStickyComment } = await import('./chunks/comment.js');
    const marker = commentMarker(inputs.commentKey);
    const body = renderMarkdown(report, { marker, maxBytes: COMMENT_LIMIT, runUrl: sourceRunUrl });
    try {
        const result = await upsertStickyComment(octokit, {
            ...repo,
            issueNumber,
            body,
            marker,
            policy: inputs.comment,
            hasFindings: report.entries.some((e) => e.severity !== 'ok'),
        });
        if (result.action === 'skipped')
            info(`PR comment not posted: ${result.reason}`);
        else
            info(`PR comment ${result.action}: ${result.url}`);
    }
    catch (error) {
        const status = httpStatus(error);
        const hint = status === 403 ? ' (a pull request from a fork gets a read-only token: use mode: comment in a workflow_run job, see the README)' : '';
        warning(`Could not post the PR comment${status ? ` (HTTP ${status})` : ''}: ${errorMessage(error)}${hint}`);
    }
}
/** Outputs, HTML report, job summary, annotations and sticky comment; in check mode, the job's verdict last. */
async function publish(inputs, report, where) {
    const markdown = renderMarkdown(report, { maxBytes: SUMMARY_LIMIT, runUrl: where.runUrl });
    await writeOutputs(report, markdown);
    await writeHtmlReport(inputs, report);
    if (process.env.GITHUB_STEP_SUMMARY)
        await summary.addRaw(markdown).write();
    const failsJob = where.enforce && report.result === 'fail' && inputs.failJob;
    if (where.enforce)
        annotate(report, failsJob ? 1 : 0);
    await postComment(inputs, where.octokit, where.issueNumber, report, where.repo, where.runUrl);
    if (where.enforce && report.result === 'fail') {
        if (failsJob)
            setFailed(failureReason(report));
        else
            warning(`${failureReason(report)} — advisory only ('fail-job: false')`);
    }
}
async function runCheckMode(inputs) {
    const { snapshot } = await collectInputs(inputs);
    const { report, baseline } = await runGate({
        snapshot,
        baselinePath: inputs.baseline,
        configPath: inputs.config,
        maxIncrease: inputs.maxIncrease,
        allowMissingBaseline: true,
    });
    if (baseline === null) {
        warning(`No baseline at ${inputs.baseline}: every key is new. Run this Action with 'mode: update' on workflow_dispatch to propose one.`);
    }
    const octokit = inputs.token ? (await import('./chunks/octokit.js')).createOctokit(inputs.token) : undefined;
    await publish(inputs, report, { issueNumber: pullRequestNumber(), repo: thisRepo(), runUrl: runUrl(), enforce: true, octokit });
}
/** 'run-id' or 'repository' names a run other than this one: its artifacts come through the REST API. */
function isOtherRun(inputs) {
    return inputs.runId !== undefined && (inputs.runId !== workflowContext().runId || inputs.repository !== undefined);
}
/** The run whose artifacts feed an update or a comment, and its repository. */
function sourceRun(inputs) {
    return { runId: inputs.runId ?? workflowContext().runId, repo: inputs.repository ?? thisRepo() };
}
/** Provenance written into the baseline: which run, repository and commit its numbers come from, and when. */
async function baselineSource(octokit, inputs, source) {
    const commit = await sourceCommit(octokit, inputs, source);
    return {
        runId: source.runId,
        repository: `${source.repo.owner}/${source.repo.repo}`,
        ...(commit ? { commit } : {}),
        date: new Date().toISOString(),
    };
}
/** The commit the baseline's numbers come from: this run's, or the source run's head; undefined rather than a wrong one. */
async function sourceCommit(octokit, inputs, source) {
    if (!isOtherRun(inputs))
        return workflowContext().sha || undefined;
    if (octokit === undefined)
        return undefined;
    try {
        const { data } = await octokit.rest.actions.getWorkflowRun({ ...source.repo, run_id: source.runId });
        return data.head_sha;
    }
    catch (error) {
        warning(`Could not read the head commit of run ${source.runId}: ${errorMessage(error)}; the baseline's source has no commit`);
        return undefined;
    }
}
async function runUpdateMode(inputs) {
    const event = workflowContext().eventName;
    if (event === 'pull_request' || event === 'pull_request_target') {
        throw new UsageError(`mode 'update' is refused on ${event} events: a pull request must not rewrite its own baseline. Run it from workflow_dispatch (see the README)`);
    }
    // Checked before anything is downloaded: getOctokit('') would throw an internal error later.
    if (inputs.updateStrategy !== 'write' && !inputs.token) {
        throw new UsageError(`'github-token' is required for update-strategy ${inputs.updateStrategy}`);
    }
    if (inputs.htmlReport !== undefined)
        warning(`'html-report' is ignored in mode 'update': there is no gate verdict to show`);
    // The baseline as a path in the repository, for the contents and Git Data APIs (`./x.json` would be a 404 / 422).
    const filePath = inputs.updateStrategy === 'write' ? inputs.baseline : repositoryPath(inputs.baseline);
    const { snapshot } = await collectInputs(inputs);
    const repo = thisRepo();
    const source = sourceRun(inputs);
    const { runId } = source;
    const branch = process.env.GITHUB_REF_NAME || 'main';
    const { openBaselinePullRequest, commitBaseline, readFileAtBranch } = await import('./chunks/baseline-pr.js');
    const octokit = inputs.updateStrategy === 'write' ? undefined : (await import('./chunks/octokit.js')).createOctokit(inputs.token);
    const existingText = octokit === undefined ? null : await readFileAtBranch(octokit, repo, filePath, branch);
    const existing = octokit === undefined ? await loadBaseline(inputs.baseline) : existingText === null ? null : parseBaseline(existingText, `${filePath}@${branch}`);
    const merged = mergeBaseline(existing, snapshot, {
        prune: inputs.prune,
        source: await baselineSource(octokit, inputs, source),
    });
    const content = serializeBaseline(merged.baseline);
    const changesMarkdown = renderBaselineChanges(existing, merged.baseline, merged.changes);
    info(changesMarkdown);
    if (process.env.GITHUB_STEP_SUMMARY)
        await summary.addRaw(changesMarkdown).write();
    const { added, changed, pruned } = merged.changes;
    if (existing !== null && added.length + changed.length + pruned.length === 0) {
        info(`${inputs.baseline} already holds every value of run ${runId}: nothing to propose`);
        return;
    }
    if (inputs.updateStrategy === 'write') {
        await writeBaselineAtomic(inputs.baseline, merged.baseline);
        info(`Wrote ${inputs.baseline}`);
        return;
    }
    const message = `Update memory baseline from run ${runId}`;
    if (octokit === undefined)
        throw new UsageError("'github-token' is required for update-strategy pull-request or commit");
    if (inputs.updateStrategy === 'commit') {
        const sha = await commitBaseline(octokit, { ...repo, baseBranch: branch, filePath, content, message });
        info(`Committed ${filePath} to ${branch}: ${sha}`);
        return;
    }
    const pr = await openBaselinePullRequest(octokit, {
        ...repo,
        baseBranch: branch,
        branch: `memory-gate/baseline-${runId}`,
        filePath,
        content,
        message,
        title: `Update memory baseline from run ${runId}`,
        body: baselinePullRequestBody(changesMarkdown, runId),
    });
    setOutput('baseline-pull-request', pr.url);
    info(`${pr.created ? 'Opened' : 'Updated'} ${pr.url}`);
}
/** A workspace path as a repository path: relative, `/`-separated, normalized, never outside the repository. */
function repositoryPath(file) {
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    const relativePath = path.isAbsolute(file) ? path.relative(workspace, file) : file;
    const normalized = path.posix.normalize(relativePath.split(path.sep).join('/'));
    if (normalized === '.' || normalized === '..' || normalized.startsWith('../') || path.posix.isAbsolute(normalized) || /^[a-zA-Z]:/.test(normalized)) {
        throw new UsageError(`'baseline' must be a file inside the repository, got '${file}'`);
    }
    return normalized;
}
function baselinePullRequestBody(changesMarkdown, runId) {
    return [
        `This pull request updates the memory baseline from workflow run ${runId}.`,
        '',
        changesMarkdown,
        '',
        '> [!NOTE]',
        '> Pull requests opened with the default `GITHUB_TOKEN` do not trigger `pull_request` workflows, so CI will not run on this PR by itself.',
        '> To have it run, pass a personal access token or a GitHub App token as `github-token` (for example from `actions/create-github-app-token`), or close and reopen the PR.',
    ].join('\n');
}
/** Fork-safe comment: re-renders, from validated data, the report that an untrusted pull_request run uploaded. */
async function runCommentMode(inputs) {
    const ctx = workflowContext();
    const workflowRun = ctx.payload.workflow_run;
    const runId = inputs.runId ?? (typeof workflowRun?.id === 'number' ? workflowRun.id : undefined);
    if (runId === undefined)
        throw new UsageError("mode 'comment' needs 'run-id' or a workflow_run event");
    const repo = inputs.repository ?? thisRepo();
    if (!inputs.token)
        throw new UsageError("mode 'comment' needs 'github-token'");
    const octokit = (await import('./chunks/octokit.js')).createOctokit(inputs.token);
    const dir = path.join(workDir(), 'report-artifact');
    const { downloadArtifacts } = await import('./chunks/artifacts.js');
    const [artifact] = await downloadArtifacts({ patterns: [inputs.reportArtifact], crossRun: { runId, owner: repo.owner, repo: repo.repo, token: inputs.token }, dir, maxBytes: REPORT_ARTIFACT_LIMIT }, (m) => info(m), (m) => warning(m));
    if (!artifact)
        throw new InputError(`artifact '${inputs.reportArtifact}' was not downloaded`);
    const reportFile = await findReportFile(artifact.path);
    const report = parseReportJson(await readFile(reportFile, 'utf8'), `${inputs.reportArtifact}/${path.relative(artifact.path, reportFile)}`);
    let issueNumber;
    const fromEvent = workflowRun?.pull_requests?.find((p) => typeof p.number === 'number');
    if (fromEvent && typeof fromEvent.number === 'number')
        issueNumber = fromEvent.number;
    else if (typeof workflowRun?.head_sha === 'string')
        issueNumber = await pullRequestForSha(octokit, repo, workflowRun.head_sha);
    // The verdict is the pull_request run's: link that run, not this workflow_run job.
    await publish(inputs, report, { issueNumber, repo, runUrl: runUrl(runId, repo), enforce: false, octokit });
}
async function findReportFile(dir) {
    const files = (await glob('**/*.json', { cwd: dir, absolute: true })).sort();
    const preferred = files.find((f) => path.basename(f) === 'report.json') ?? files[0];
    if (!preferred)
        throw new InputError(`the report artifact holds no .json file`);
    return preferred;
}
/** Forks' PRs are missing from workflow_run.pull_requests: find the PR by its head commit. */
async function pullRequestForSha(octokit, repo, sha) {
    try {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha });
        const associated = data.find((p) => p.state === 'open')?.number ?? data[0]?.number;
        if (associated !== undefined)
            return associated;
        // A fork's commit is not associated with the base repository: match open PRs by head sha.
        const open = await octokit.paginate(octokit.rest.pulls.list, { ...repo, state: 'open', per_page: 100 });
        return open.find((p) => p.head.sha === sha)?.number;
    }
    catch (error) {
        warning(`Could not look up the pull request of ${sha}: ${errorMessage(error)}`);
        return undefined;
    }
}

// Entry of the Action: runs it, nothing else.
void run();

export { debug as d, error as e, httpStatus as h, info as i, setSecret as s, warning as w };
