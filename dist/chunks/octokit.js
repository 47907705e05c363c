import { g as getOctokit } from './github.js';
import 'fs';
import 'os';
import 'http';
import 'https';
import 'net';
import 'tls';
import 'events';
import 'assert';
import 'util';
import 'node:assert';
import 'node:net';
import 'node:http';
import 'node:stream';
import 'node:buffer';
import 'node:util';
import 'node:querystring';
import 'node:events';
import 'node:diagnostics_channel';
import './local.js';
import 'node:fs/promises';
import 'node:path';
import 'path';
import 'url';
import 'module';
import './sources.js';
import 'node:tls';
import 'node:zlib';
import 'node:perf_hooks';
import 'node:util/types';
import 'node:worker_threads';
import 'node:url';
import 'node:async_hooks';
import 'node:console';
import 'node:dns';
import 'string_decoder';

// The one place that builds the GitHub client, loaded only by the runs that talk to GitHub (it bundles undici and
// Octokit, most of the Action's code); the workflow context and the error helpers live in context.ts.
function createOctokit(token) {
    return getOctokit(token);
}

export { createOctokit };
