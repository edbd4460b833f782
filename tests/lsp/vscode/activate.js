// SPDX-License-Identifier: MIT
// The VS Code extension run outside VS Code.
//
//   node tests/lsp/vscode/activate.js EXT
//
// EXT is a copy of editors/vscode with its node_modules.  `vscode` (which
// only VS Code provides) is replaced by a stub; vscode-languageclient/node
// is the real module, loaded with that stub, except that its LanguageClient
// is replaced by one that records what it is given.  extension.js is then
// required and activated with a fake context and a set of settings, and
// what it started is compared with the command line the settings mean:
// segc.path lsp [segc.args...] [-I DIR]...  Then settings change, and the
// extension is deactivated.  One line per check, tab-separated: "ok WHAT"
// or "FAIL WHAT WHY"; exit 1 if any failed.
'use strict';

const Module = require('module');
const path = require('path');
const assert = require('assert');

const ext = path.resolve(process.argv[2] || '.');
const root = '/work/space';
let failed = false;

function check(what, fn) {
    try {
        fn();
        console.log(`ok\t${what}`);
    } catch (err) {
        failed = true;
        console.log(`FAIL\t${what}\t${String(err.message).replace(/\s+/g, ' ')}`);
    }
}

// What the extension did, as the stubs saw it.
const seen = { clients: [], started: 0, stopped: 0, reads: [], commands: [], errors: [] };
const listeners = [];
let settings = {};

// Anything vscode-languageclient takes from `vscode` when it loads (classes
// it extends, enums): a constructor that is also an empty namespace.
function anything(name) {
    const f = function () {};
    Object.defineProperty(f, 'name', { value: name });
    return f;
}
const vscodeBase = {
    workspace: {
        workspaceFolders: [{ uri: { scheme: 'file', fsPath: root } }],
        getConfiguration(section) {
            return {
                get(key, fallback) {
                    const name = section ? `${section}.${key}` : key;
                    seen.reads.push(name);
                    return Object.prototype.hasOwnProperty.call(settings, name) ? settings[name] : fallback;
                },
            };
        },
        onDidChangeConfiguration(fn) {
            listeners.push(fn);
            return { dispose() {} };
        },
    },
    window: {
        showErrorMessage(msg) {
            seen.errors.push(msg);
            return Promise.resolve(undefined);
        },
    },
    commands: {
        registerCommand(id, fn) {
            seen.commands.push({ id, fn });
            return { dispose() {} };
        },
    },
};
const vscode = new Proxy(vscodeBase, {
    get(target, prop) {
        if (!(prop in target) && typeof prop === 'string') target[prop] = anything(prop);
        return target[prop];
    },
});

class RecordingClient {
    constructor(id, name, serverOptions, clientOptions) {
        seen.clients.push({ id, name, serverOptions, clientOptions });
    }
    start() {
        seen.started++;
        return Promise.resolve();
    }
    stop() {
        seen.stopped++;
        return Promise.resolve();
    }
}

let realClient;
const load = Module._load;
Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return vscode;
    if (request === 'vscode-languageclient/node' && parent && parent.filename === path.join(ext, 'extension.js')) {
        const real = load.call(this, request, parent, isMain);
        realClient = real.LanguageClient;
        return Object.assign({}, real, { LanguageClient: RecordingClient });
    }
    return load.call(this, request, parent, isMain);
};

// The command line these settings must give.
function expected(s) {
    const dirs = s['segc.includeDirs'] || [];
    return {
        command: s['segc.path'] || 'segc',
        args: ['lsp', ...(s['segc.args'] || []),
            ...dirs.flatMap((d) => ['-I', path.isAbsolute(d) ? d : path.join(root, d)])],
    };
}

function changed(...names) {
    const event = { affectsConfiguration: (s) => names.some((n) => n === s || n.startsWith(`${s}.`)) };
    return Promise.all(listeners.map((fn) => fn(event)));
}

async function main() {
    const pkg = require(path.join(ext, 'package.json'));
    const declared = Object.keys(pkg.contributes.configuration.properties);
    let extension;
    check('extension.js loads with vscode-languageclient/node', () => {
        extension = require(path.join(ext, 'extension.js'));
        assert.strictEqual(typeof realClient, 'function', 'vscode-languageclient/node has no LanguageClient');
        assert.strictEqual(typeof extension.activate, 'function', 'no activate()');
        assert.strictEqual(typeof extension.deactivate, 'function', 'no deactivate()');
    });
    if (!extension) return;

    settings = {
        'segc.path': '/opt/segc/bin/segc',
        'segc.args': ['--log', '/tmp/segc-lsp.log'],
        'segc.includeDirs': ['/srv/chips', 'boards/common'],
        'segc.trace.server': 'verbose',
    };
    const context = { subscriptions: [], extensionPath: ext, extensionUri: { fsPath: ext } };
    let activated = false;
    try {
        await extension.activate(context);
        activated = true;
    } catch (err) {
        check('activate() returns', () => { throw err; });
    }
    if (!activated) return;
    check('activate() starts one LanguageClient', () => {
        assert.strictEqual(seen.clients.length, 1, `${seen.clients.length} clients constructed`);
        assert.strictEqual(seen.started, 1, `start() called ${seen.started} times`);
        assert.deepStrictEqual(seen.errors, []);
    });
    const first = seen.clients[0] || {};
    const server = first.serverOptions || {};
    check(`the server is ${expected(settings).command} ${expected(settings).args.join(' ')}`, () => {
        assert.strictEqual(server.command, expected(settings).command, 'command');
        assert.deepStrictEqual(server.args, expected(settings).args, 'args');
        assert.strictEqual(server.transport, undefined,
            'a transport makes vscode-languageclient add its own argument (--stdio)');
    });
    check('the server runs in the workspace folder', () => {
        assert.strictEqual((server.options || {}).cwd, root);
    });
    check('every setting the extension owns is read', () => {
        const unread = declared.filter((n) => n !== 'segc.trace.server' && !seen.reads.includes(n));
        assert.deepStrictEqual(unread, []);
    });
    check('segc.trace.server is the client\'s own trace setting (id "segc")', () => {
        assert.ok(declared.includes(`${first.id}.trace.server`), `client id ${first.id}`);
    });
    check('the documents are YAML files, saved or untitled', () => {
        const sel = ((first.clientOptions || {}).documentSelector || [])
            .map((d) => `${d.scheme}:${d.language}`).sort();
        assert.deepStrictEqual(sel, ['file:yaml', 'untitled:yaml']);
    });
    check('the restart command is registered and declared', () => {
        const ids = seen.commands.map((c) => c.id);
        const declaredCommands = (pkg.contributes.commands || []).map((c) => c.command);
        assert.deepStrictEqual(ids, declaredCommands);
    });

    // A trace change is the client's business; a command-line change restarts.
    settings = { ...settings, 'segc.trace.server': 'off' };
    await changed('segc.trace.server');
    check('changing segc.trace.server does not restart the server', () => {
        assert.strictEqual(seen.clients.length, 1);
        assert.strictEqual(seen.stopped, 0);
    });
    settings = { 'segc.includeDirs': ['inc'] };
    await changed('segc.includeDirs');
    check(`changing segc.includeDirs restarts it as ${expected(settings).args.join(' ')}`, () => {
        assert.strictEqual(seen.stopped, 1, `stop() called ${seen.stopped} times`);
        assert.strictEqual(seen.clients.length, 2, `${seen.clients.length} clients constructed`);
        assert.strictEqual(seen.clients[1].serverOptions.command, 'segc', 'the default command');
        assert.deepStrictEqual(seen.clients[1].serverOptions.args, expected(settings).args);
    });
    await extension.deactivate();
    check('deactivate() stops the server', () => {
        assert.strictEqual(seen.stopped, 2, `stop() called ${seen.stopped} times`);
    });
}

main().then(
    () => process.exit(failed ? 1 : 0),
    (err) => {
        console.log(`FAIL\tactivate.js\t${String(err && err.stack ? err.stack : err).replace(/\s+/g, ' ')}`);
        process.exit(1);
    },
);
