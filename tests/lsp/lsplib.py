# SPDX-License-Identifier: MIT
"""lsplib - a small LSP client for testing `segc lsp` (Python 3, stdlib only).

    import lsplib
    t = lsplib.Test("protocol")           # counts; closes "lsp-protocol: N passed, M failed"
    with lsplib.Client() as c:            # starts `$SEGC lsp` (or argv[1])
        c.initialize(encodings=["utf-8"])
        uri = c.open("/tmp/x/board.yaml", text)   # -> uri; c.diags[uri] after c.sync()
        c.change(uri, ((3, 8), (3, 12)), "4GiB")   # incremental edit, then sync
        r = c.request("textDocument/hover", {...})  # the whole response message
        c.shutdown(); status = c.exit()
    t.check(cond, "what", "why")         # "ok   what" / "FAIL what: why"
    t.end()                               # the closing line; exit 1 on failure

Every wait for the server has a time limit (LSP_TIMEOUT, default 20 s): a
server that hangs fails the test instead of hanging it.  The server's
standard error is collected (Client.stderr()); a test decides what it may
contain.  sync() is a barrier: it sends a request no server knows and waits
for its answer; the server handles messages in order, so every notification
it sent for what came before (publishDiagnostics) has arrived by then.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse

TIMEOUT = float(os.environ.get("LSP_TIMEOUT", "20"))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class LspError(Exception):
    pass


def segc_path():
    if len(sys.argv) > 1:
        return os.path.abspath(sys.argv[1])
    return os.path.abspath(os.environ.get("SEGC", os.path.join(ROOT, "build", "segc")))


def scratch_dir(name):
    """A fresh directory for the files a test writes: below $tmp (run.sh's
    scratch directory) when set, else the system's temporary directory."""
    base = os.environ.get("tmp") or None
    return tempfile.mkdtemp(prefix="lsp-%s." % name, dir=base)


# ---- URIs and positions ------------------------------------------------------


def uri_of(path):
    if "://" in path or path.startswith("untitled:"):
        return path
    return "file://" + urllib.parse.quote(os.path.abspath(path))


def path_of(uri):
    assert uri.startswith("file://"), uri
    return urllib.parse.unquote(uri[len("file://"):])


def units(s, enc="utf-16"):
    """Length of str s in code units of the position encoding."""
    if enc == "utf-8":
        return len(s.encode("utf-8"))
    if enc == "utf-32":
        return len(s)
    return len(s.encode("utf-16-le")) // 2


def position(text, line, col_bytes, enc="utf-16"):
    """segc's 1-based line and 1-based byte column in text (str) -> an LSP
    position {line, character} (0-based, in encoding enc)."""
    lines = text.encode("utf-8").split(b"\n")
    raw = lines[line - 1] if line - 1 < len(lines) else b""
    before = raw[: col_bytes - 1].decode("utf-8")
    return {"line": line - 1, "character": units(before, enc)}


def offset_position(text, offset, enc="utf-16"):
    """A character offset of str text -> an LSP position."""
    before = text[:offset]
    line = before.count("\n")
    start = before.rfind("\n") + 1
    return {"line": line, "character": units(before[start:], enc)}


def find_position(text, needle, enc="utf-16", nth=0, delta=0):
    """The LSP position of the nth occurrence of needle in text (+delta chars)."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return offset_position(text, i + delta, enc)


def lsp_range(start, end):
    """((line, char), (line, char)) or two position dicts -> an LSP Range."""
    def p(x):
        return x if isinstance(x, dict) else {"line": x[0], "character": x[1]}
    return {"start": p(start), "end": p(end)}


# ---- framing -------------------------------------------------------------------


class Unframed(LspError):
    """Output that is not a well-framed message; more: whether the stream
    can still be read after it."""

    def __init__(self, why, more=False):
        LspError.__init__(self, why)
        self.more = more


def read_message(f):
    """The next message of the binary stream f, its body parsed as JSON;
    None at the end of the stream.  Every header line, and the empty line
    after them, ends in CRLF (a CR added by a text-mode stream fails)."""
    length = None
    while True:
        line = f.readline()
        if not line:
            return None
        if not line.endswith(b"\r\n") or b"\r" in line[:-2]:
            raise Unframed("a header line not ended by exactly CRLF: %r" % line[:80])
        if line == b"\r\n":
            break
        name, _, value = line[:-2].decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        raise Unframed("a message without Content-Length", more=True)
    body = f.read(length)
    if len(body) < length:
        raise Unframed("a truncated message")
    return json.loads(body.decode("utf-8"))


def read_messages(path):
    """Every message of a file that holds a server's whole output."""
    msgs = []
    with open(path, "rb") as f:
        while True:
            msg = read_message(f)
            if msg is None:
                return msgs
            msgs.append(msg)


# ---- the client --------------------------------------------------------------


class Client:
    """`segc lsp` as a child process, spoken to over its standard input and
    output with Content-Length framing."""

    def __init__(self, segc=None, args=(), cwd=None, env=None):
        self.segc = segc or segc_path()
        self.proc = subprocess.Popen(
            [self.segc, "lsp"] + list(args), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.next_id = 1
        self.inbox = queue.Queue()   # messages as the reader thread parses them
        self.responses = {}          # id (as JSON text) -> response
        self.notifications = []      # every notification, in order
        self.published = {}          # uri -> [publishDiagnostics params, ...]
        self.diags = {}              # uri -> the latest diagnostics list
        self.junk = []               # output that is not a well-framed message
        self._err = []
        self.status = None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self._err_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._err_reader.start()

    # -- reading

    def _read_stdout(self):
        f = self.proc.stdout
        while True:
            try:
                msg = read_message(f)
            except Unframed as e:
                self.junk.append(str(e))
                if e.more:
                    continue
                msg = None
            except Exception as e:  # a malformed message is a failure, not a hang
                self.junk.append("unreadable output: %r" % e)
                msg = None
            self.inbox.put(msg)
            if msg is None:
                return

    def _read_stderr(self):
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):
            self._err.append(chunk)

    def stderr(self):
        return b"".join(self._err).decode("utf-8", "replace")

    def _take(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise LspError("no answer from the server within %g s" % TIMEOUT)
        try:
            msg = self.inbox.get(timeout=left)
        except queue.Empty:
            raise LspError("no answer from the server within %g s" % TIMEOUT)
        if msg is None:
            self.inbox.put(None)  # stays at the end of the stream
            raise LspError("the server closed its output (exit %s)%s" % (
                self.proc.poll(), ": " + self.stderr()[-500:] if self.stderr() else ""))
        if "method" in msg and "id" not in msg:
            self.notifications.append(msg)
            if msg["method"] == "textDocument/publishDiagnostics":
                p = msg["params"]
                self.published.setdefault(p["uri"], []).append(p)
                self.diags[p["uri"]] = p["diagnostics"]
        elif "id" in msg:
            self.responses[json.dumps(msg["id"])] = msg
        else:
            self.junk.append("neither response nor notification: %r" % msg)
        return msg

    def wait_response(self, rid, timeout=None):
        """The response with id rid (any JSON value, e.g. None)."""
        key = json.dumps(rid)
        deadline = time.monotonic() + (timeout or TIMEOUT)
        while key not in self.responses:
            self._take(deadline)
        return self.responses.pop(key)

    def wait_for(self, pred, timeout=None):
        """Reads until a message satisfies pred(msg); returns it."""
        deadline = time.monotonic() + (timeout or TIMEOUT)
        while True:
            msg = self._take(deadline)
            if pred(msg):
                return msg

    # -- writing

    def send_raw(self, data):
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError) as e:
            raise LspError("cannot write to the server: %s" % e)

    def send(self, msg):
        body = json.dumps(msg).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def request_async(self, method, params=None):
        rid = self.next_id
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return rid

    def request(self, method, params=None):
        """The whole response message ({"result": ...} or {"error": ...})."""
        return self.wait_response(self.request_async(method, params))

    def result(self, method, params=None):
        """The result of a request; LspError if it was answered with an error."""
        r = self.request(method, params)
        if "error" in r:
            raise LspError("%s answered %s" % (method, json.dumps(r["error"])))
        return r.get("result")

    def sync(self):
        """Waits until the server has handled everything sent so far."""
        return self.request("$/segc-test/sync")

    # -- LSP

    def initialize(self, encodings=None, capabilities=None, initialized=True):
        caps = dict(capabilities or {})
        if encodings is not None:
            caps.setdefault("general", {})["positionEncodings"] = list(encodings)
        r = self.result("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": caps})
        self.init_result = r
        self.encoding = r.get("capabilities", {}).get("positionEncoding", "utf-16")
        if initialized:
            self.notify("initialized", {})
        return r

    def capability(self, name):
        return bool(getattr(self, "init_result", {}).get("capabilities", {}).get(name))

    def open(self, path_or_uri, text=None, version=1, language="yaml", wait=True):
        """Opens a document (text read from the file when not given); with
        wait, returns after the server answered, its diagnostics in
        self.diags[uri]."""
        uri = uri_of(path_or_uri)
        if text is None:
            with open(path_of(uri), encoding="utf-8") as f:
                text = f.read()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": language, "version": version, "text": text}})
        if wait:
            self.sync()
        return uri

    def change(self, uri, rng, text, version=2, wait=True):
        """Replaces rng (see lsp_range; None: the whole text) with text."""
        change = {"text": text}
        if rng is not None:
            change["range"] = rng if isinstance(rng, dict) and "start" in rng else lsp_range(*rng)
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [change]})
        if wait:
            self.sync()

    def close(self, uri, wait=True):
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        if wait:
            self.sync()

    def publishes(self, uri):
        return len(self.published.get(uri, []))

    def shutdown(self):
        return self.request("shutdown")

    def wait_exit(self, timeout=None):
        try:
            self.status = self.proc.wait(timeout=timeout or TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise LspError("the server did not exit within %g s" % (timeout or TIMEOUT))
        self._err_reader.join(timeout or TIMEOUT)  # all it wrote before it ended
        return self.status

    def exit(self):
        """Sends `exit` and returns the exit status."""
        self.notify("exit")
        return self.wait_exit()

    def close_stdin(self):
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except Exception:
                pass
        return False


# ---- checks and the closing line ---------------------------------------------


class Test:
    """ok/FAIL/skip lines as tests/lib.sh prints them, and the closing
    "lsp-NAME: N passed, M failed[, K skipped]" line tests/lsp/run.sh adds up."""

    def __init__(self, name):
        self.name = "lsp-" + name
        self.passed = self.failed = self.skipped = 0
        self.segc = segc_path()
        self.dir = scratch_dir(name)

    def ok(self, what):
        self.passed += 1
        print("ok   " + what, flush=True)

    def bad(self, what, why=""):
        self.failed += 1
        why = str(why)
        print("FAIL %s%s" % (what, ": " + why.replace("\n", "\n    | ") if why else ""), flush=True)

    def skip(self, what, why):
        self.skipped += 1
        print("skip %s: %s" % (what, why), flush=True)

    def check(self, cond, what, why=""):
        (self.ok if cond else self.bad)(what, *(() if cond else (why,)))
        return bool(cond)

    def eq(self, got, want, what):
        return self.check(got == want, what, "got %s, expected %s" % (
            json.dumps(got, sort_keys=True), json.dumps(want, sort_keys=True)))

    def run(self, fn, *args):
        """Runs one case function; an exception (a timeout, a dead server)
        is one failure named after it, and the next case still runs."""
        try:
            fn(*args)
        except Exception as e:
            self.bad(fn.__name__, "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc(limit=3)))

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        return path

    def end(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        line = "%s: %d passed, %d failed" % (self.name, self.passed, self.failed)
        if self.skipped:
            line += ", %d skipped" % self.skipped
        print(line, flush=True)
        sys.exit(1 if self.failed else 0)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def check_json_files(segc, paths, *args):
    """`segc check --diagnostics=json` on many files in one process: their
    file entries by absolute path."""
    p = subprocess.run([segc, "check", "--diagnostics=json"] + list(args) + [os.path.abspath(x) for x in paths],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    doc = json.loads(p.stdout.decode("utf-8"))
    return {f["file"]: f for f in doc["files"]}


def check_json(segc, path, *args):
    """`segc check --diagnostics=json` on path: the diagnostics of its file
    entry (the independent answer the server's diagnostics are held to)."""
    p = subprocess.run([segc, "check", "--diagnostics=json"] + list(args) + [path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    doc = json.loads(p.stdout.decode("utf-8"))
    return doc["files"][0], doc["summary"], p.returncode
