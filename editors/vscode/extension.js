// SPDX-License-Identifier: MIT
// The segc extension for VS Code: it starts `segc lsp` and connects it to
// every YAML document.  The server itself decides which documents are segc
// specs (those with a top-level `segc:` key); it leaves the others alone.
'use strict';

const path = require('path');
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

// The client's id is also the configuration section it reads its trace
// level from: with 'segc', vscode-languageclient follows segc.trace.server
// by itself, changes included.
const ID = 'segc';

// The settings that change the server's command line: a change to any of
// them starts the server again.
const RESTART_ON = ['segc.path', 'segc.args', 'segc.includeDirs'];

let client;

// The command line, from the settings: segc.path lsp [segc.args...]
// [-I DIR]... (a relative DIR is taken from the first workspace folder,
// which is also the server's working directory).
function serverOptions() {
    const config = vscode.workspace.getConfiguration(ID);
    const folders = vscode.workspace.workspaceFolders || [];
    const root = folders.length > 0 && folders[0].uri.scheme === 'file' ? folders[0].uri.fsPath : undefined;
    const args = ['lsp', ...config.get('args', [])];
    for (const dir of config.get('includeDirs', [])) {
        args.push('-I', root !== undefined && !path.isAbsolute(dir) ? path.join(root, dir) : dir);
    }
    return {
        command: config.get('path', 'segc') || 'segc',
        args,
        options: root !== undefined ? { cwd: root } : {},
    };
}

const clientOptions = {
    documentSelector: [
        { scheme: 'file', language: 'yaml' },
        { scheme: 'untitled', language: 'yaml' },
    ],
    outputChannelName: 'segc',
};

async function start() {
    const server = serverOptions();
    client = new LanguageClient(ID, 'segc', server, clientOptions);
    try {
        await client.start();
    } catch (err) {
        vscode.window.showErrorMessage(
            `segc: '${server.command} lsp' did not start (${err && err.message ? err.message : err}); ` +
            'set segc.path to a segc that has the lsp command.');
    }
}

async function stop() {
    const old = client;
    client = undefined;
    if (old !== undefined) {
        try {
            await old.stop();
        } catch (err) {
            // A server that never started cannot be stopped; nothing is left to do.
        }
    }
}

async function restart() {
    await stop();
    await start();
}

async function activate(context) {
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration((event) => {
            if (RESTART_ON.some((name) => event.affectsConfiguration(name))) {
                return restart();
            }
            return undefined;
        }),
        vscode.commands.registerCommand('segc.restartServer', restart),
    );
    await start();
}

function deactivate() {
    return stop();
}

module.exports = { activate, deactivate };
