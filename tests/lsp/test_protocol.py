# SPDX-License-Identifier: MIT
"""segc lsp: the protocol.  The lifecycle (initialize, shutdown, exit and
the exit status), the position encoding negotiated, JSON-RPC errors, the
base protocol's framing (headers, Content-Length, oversized and truncated
messages).  The server must answer each malformed message as LSP and
JSON-RPC 2.0 say, keep going, and never write to its standard error."""
import json
import os
import re
import subprocess
import threading

import lsplib
from lsplib import ROOT

t = lsplib.Test("protocol")

# JSON-RPC 2.0 and LSP 3.17 error codes (the specifications' numbers).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002

# Requests that take a textDocument, by the capability that announces them.
DOC_REQUESTS = [("hoverProvider", "textDocument/hover"), ("definitionProvider", "textDocument/definition"),
                ("referencesProvider", "textDocument/references"),
                ("completionProvider", "textDocument/completion"),
                ("documentSymbolProvider", "textDocument/documentSymbol"),
                ("codeActionProvider", "textDocument/codeAction")]


def rpc_max_body():
    """RPC_MAX_BODY as compiler/lsp/lsp.h defines it (from SRC_MAX_BYTES)."""
    def enum(path, name):
        text = lsplib.read(os.path.join(ROOT, path))
        return re.search(r"\b%s = ([^,;}]*)" % name, text).group(1).replace("u", "")
    src_max = eval(enum("compiler/segc.h", "SRC_MAX_BYTES"))
    return eval(enum("compiler/lsp/lsp.h", "RPC_MAX_BODY").replace("SRC_MAX_BYTES", str(src_max)))


def error_code(r):
    return r.get("error", {}).get("code") if isinstance(r.get("error"), dict) else None


def expect_error(r, code, what, rid="same"):
    """r is an error response with code (and id rid, unless "same")."""
    ok = error_code(r) == code and "result" not in r and r.get("jsonrpc") == "2.0" \
        and isinstance(r["error"].get("message"), str)
    if rid != "same":
        ok = ok and "id" in r and r["id"] == rid
    t.check(ok, what, "got %s, expected error %d%s" % (json.dumps(r), code,
                                                        "" if rid == "same" else " with id %s" % json.dumps(rid)))


def alive(c, what):
    """The server still answers: a request gets its own answer, and nothing
    else came in the meantime."""
    before = len(c.notifications)
    r = c.sync()
    t.check(error_code(r) == METHOD_NOT_FOUND and not c.responses and len(c.notifications) == before
            and not c.junk, what + ": the server goes on",
            "answer %s, stray responses %s, junk %s" % (json.dumps(r), list(c.responses.values()), c.junk))


def finish(c, what, status=0):
    """shutdown, exit: the status, and an empty standard error."""
    if status == 0:
        c.shutdown()
    t.eq(c.exit(), status, "%s: exit status %d" % (what, status))
    t.eq(c.stderr(), "", "%s: nothing on stderr" % what)


def lifecycle():
    with lsplib.Client(t.segc) as c:
        r = c.initialize()
        caps = r.get("capabilities", {})
        sync = caps.get("textDocumentSync")
        t.check(isinstance(sync, dict) and sync.get("change") == 2 and sync.get("openClose") is True,
                "initialize: open/close and incremental sync (change 2)", "textDocumentSync %r" % sync)
        t.eq(caps.get("positionEncoding"), "utf-16", "initialize: utf-16 positions by default")
        t.eq(r.get("serverInfo", {}).get("name"), "segc", "initialize: serverInfo.name")
        r = c.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        t.check("error" in r, "initialize twice: an error", json.dumps(r))
        r = c.shutdown()
        t.check("result" in r and r["result"] is None and "error" not in r, "shutdown: result null", r)
        expect_error(c.request("textDocument/hover", {"textDocument": {"uri": "file:///x.yaml"},
                                                      "position": {"line": 0, "character": 0}}),
                     INVALID_REQUEST, "a request after shutdown: -32600")
        expect_error(c.request("shutdown"), INVALID_REQUEST, "shutdown after shutdown: -32600")
        # Notifications after shutdown are dropped.
        c.open("untitled:after-shutdown", "segc: 1\nboard: [\n")
        t.eq(c.publishes("untitled:after-shutdown"), 0, "didOpen after shutdown: dropped")
        t.eq(c.exit(), 0, "exit after shutdown: status 0")
        t.eq(c.stderr(), "", "lifecycle: nothing on stderr")


def encodings():
    for offered, want in ((["utf-8"], "utf-8"), (["utf-32", "utf-8", "utf-16"], "utf-8"),
                          (["utf-32"], "utf-16"), ([], "utf-16"), (["utf-16"], "utf-16")):
        with lsplib.Client(t.segc) as c:
            r = c.initialize(encodings=offered)
            t.eq(r["capabilities"].get("positionEncoding"), want, "positionEncodings %s: %s" % (offered, want))
            finish(c, "positionEncodings %s" % offered)


def before_initialize():
    with lsplib.Client(t.segc) as c:
        expect_error(c.request("shutdown"), SERVER_NOT_INITIALIZED, "shutdown before initialize: -32002")
        expect_error(c.request("textDocument/hover", {}), SERVER_NOT_INITIALIZED,
                     "a request before initialize: -32002")
        expect_error(c.request("no/such/method"), SERVER_NOT_INITIALIZED,
                     "an unknown request before initialize: -32002")
        # A notification before initialize is dropped: no diagnostics then,
        # and the document is not open afterwards.
        c.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:early", "languageId": "yaml",
                                                           "version": 1, "text": "segc: 1\nboard: [\n"}})
        c.sync()
        t.eq(c.publishes("untitled:early"), 0, "didOpen before initialize: no diagnostics")
        c.initialize()
        c.notify("textDocument/didChange", {"textDocument": {"uri": "untitled:early", "version": 2},
                                            "contentChanges": [{"text": "segc: 1\n"}]})
        c.sync()
        t.eq(c.publishes("untitled:early"), 0, "didOpen before initialize: the document was not opened")
        finish(c, "before initialize")


def unknown_methods():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        r = c.request("segc/noSuchMethod", {})
        expect_error(r, METHOD_NOT_FOUND, "unknown request: -32601")
        t.eq(r.get("id"), c.next_id - 1, "unknown request: answered with its id")
        c.send({"jsonrpc": "2.0", "id": "a-string-id", "method": "segc/noSuchMethod"})
        expect_error(c.wait_response("a-string-id"), METHOD_NOT_FOUND, "a string id: answered with it",
                     rid="a-string-id")
        c.send({"jsonrpc": "2.0", "id": 0, "method": "segc/noSuchMethod"})
        expect_error(c.wait_response(0), METHOD_NOT_FOUND, "id 0: answered with it", rid=0)
        c.notify("segc/noSuchNotification", {"x": 1})
        c.notify("$/setTrace", {"value": "off"})
        alive(c, "unknown notifications: ignored")
        rid = c.request_async("segc/noSuchMethod")
        c.notify("$/cancelRequest", {"id": rid})
        c.notify("$/cancelRequest", {"id": 12345})
        expect_error(c.wait_response(rid), METHOD_NOT_FOUND, "$/cancelRequest: the request is still answered")
        alive(c, "$/cancelRequest: ignored")
        # A response from the client (to a request the server never sent)
        # gets no answer.
        c.send({"jsonrpc": "2.0", "id": 99, "result": None})
        c.send({"jsonrpc": "2.0", "id": 98, "error": {"code": -1, "message": "no"}})
        alive(c, "a response object from the client: ignored")
        finish(c, "unknown methods")


def invalid_requests():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        body = b'{"jsonrpc": "2.0", "id": 7, "method": '
        c.send_raw(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        expect_error(c.wait_response(None), PARSE_ERROR, "malformed JSON: -32700 with id null", rid=None)
        alive(c, "malformed JSON")
        body = "{\"jsonrpc\": \"2.0\", \"id\": 8, \"method\": \"x\", \"params\": \"\xff\"}".encode("latin-1")
        c.send_raw(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        expect_error(c.wait_response(None), PARSE_ERROR, "a body that is not UTF-8: -32700 with id null",
                     rid=None)
        alive(c, "a body that is not UTF-8")
        for msg, rid, what in (
                ({"jsonrpc": "1.0", "id": 11, "method": "shutdown"}, 11, "jsonrpc 1.0"),
                ({"id": 12, "method": "shutdown"}, 12, "no jsonrpc member"),
                ({"jsonrpc": 2.0, "id": 13, "method": "shutdown"}, 13, "jsonrpc a number"),
                ({"jsonrpc": "2.0", "id": 14, "method": 5}, 14, "method a number"),
                ({"jsonrpc": "2.0", "id": 15}, 15, "no method, no result"),
                ({"jsonrpc": "2.0", "id": 16, "method": "shutdown", "params": "x"}, 16, "params a string"),
                ({"jsonrpc": "2.0", "id": {"a": 1}, "method": "shutdown"}, None, "id an object"),
                ({"jsonrpc": "2.0", "id": 1.5, "method": "shutdown"}, None, "id a float"),
                ({"jsonrpc": "2.0", "id": [1], "method": "shutdown"}, None, "id an array"),
                ({"jsonrpc": "2.0", "id": True, "method": "shutdown"}, None, "id true"),
                ([{"jsonrpc": "2.0", "id": 17, "method": "shutdown"}], None, "a batch (an array)"),
                ("shutdown", None, "a string")):
            c.send(msg)
            expect_error(c.wait_response(rid), INVALID_REQUEST, "%s: -32600 with id %s" % (what, json.dumps(rid)),
                         rid=rid)
        alive(c, "invalid requests")
        # None of them was taken for the shutdown it named.
        t.check("result" in c.shutdown(), "invalid requests: none was run")
        t.eq(c.exit(), 0, "invalid requests: exit status 0")
        t.eq(c.stderr(), "", "invalid requests: nothing on stderr")


def framing():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        cases = [
            (b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n", "a header without Content-Length"),
            (b"Content-Length: twelve\r\n\r\n", "a non-numeric Content-Length"),
            (b"Content-Length: -5\r\n\r\n", "a negative Content-Length"),
            (b"Content-Length: 1000000000000000000000000000000\r\n\r\n", "Content-Length 10^30"),
            (b"Content-Length: 18446744073709551616\r\n\r\n", "Content-Length 2^64"),
            (b"Content-Length 12\r\n\r\n", "a header line without ':'"),
            (b"X-Long: " + b"a" * 2000 + b"\r\n\r\n", "a header line of 2008 bytes"),
        ]
        for raw, what in cases:
            c.send_raw(raw)
            expect_error(c.wait_response(None), PARSE_ERROR, "%s: -32700 with id null" % what, rid=None)
            alive(c, what)
        # Headers may be in any case, a Content-Type may come along, and
        # the line ends may be bare LFs.
        body = b'{"jsonrpc":"2.0","id":"h1","method":"segc/none"}'
        c.send_raw(b"content-length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n%s"
                   % (len(body), body))
        expect_error(c.wait_response("h1"), METHOD_NOT_FOUND, "a lower-case content-length and a Content-Type")
        body = b'{"jsonrpc":"2.0","id":"h2","method":"segc/none"}'
        c.send_raw(b"Content-Length: %d\n\n%s" % (len(body), body))
        expect_error(c.wait_response("h2"), METHOD_NOT_FOUND, "LF line ends in the header")
        # Two messages in one write.
        b1 = b'{"jsonrpc":"2.0","id":"m1","method":"segc/none"}'
        b2 = b'{"jsonrpc":"2.0","id":"m2","method":"segc/none"}'
        c.send_raw(b"Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s" % (len(b1), b1, len(b2), b2))
        expect_error(c.wait_response("m1"), METHOD_NOT_FOUND, "two messages in one write: the first")
        expect_error(c.wait_response("m2"), METHOD_NOT_FOUND, "two messages in one write: the second")
        finish(c, "framing")


def long_header_with_body():
    # A well-formed message whose header block has a line over the limit:
    # refused, but its body (Content-Length is known) must not be read as
    # the next message's header, or every later message would be lost.
    with lsplib.Client(t.segc) as c:
        c.initialize()
        body = b'{"jsonrpc":"2.0","id":"long","method":"segc/none"}'
        c.send_raw(b"X-Long: %s\r\nContent-Length: %d\r\n\r\n%s" % (b"b" * 3000, len(body), body))
        r = c.wait_response(None)
        t.eq(error_code(r), PARSE_ERROR, "a 3008-byte header line before a body: -32700")
        for i in range(3):
            alive(c, "a 3008-byte header line before a body (message %d after it)" % (i + 1))
        finish(c, "a long header line before a body")


def oversized():
    limit = rpc_max_body()
    with lsplib.Client(t.segc) as c:
        c.initialize()
        n = limit + 1
        head = b'{"jsonrpc":"2.0","id":"big","method":"segc/none","params":{"x":"'
        tail = b'"}}'
        body = head + b"x" * (n - len(head) - len(tail)) + tail
        assert len(body) == n
        # Written from a thread: the server reads while the answer is awaited.
        w = threading.Thread(target=c.send_raw, args=(b"Content-Length: %d\r\n\r\n" % n + body,))
        w.start()
        r = c.wait_response(None, timeout=max(lsplib.TIMEOUT, 60))
        w.join()
        expect_error(r, INVALID_REQUEST, "a body of RPC_MAX_BODY+1 (%d) bytes: -32600 with id null" % n, rid=None)
        t.check("big" not in [json.loads(k) for k in c.responses], "the oversized request itself is not answered")
        alive(c, "an oversized body, read through")
        finish(c, "oversized body")


def truncated():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        c.send_raw(b'Content-Length: 100\r\n\r\n{"jsonrpc":"2.0","id":1,')
        c.close_stdin()
        r = c.wait_response(None)
        expect_error(r, PARSE_ERROR, "a body cut short by the end of the stream: -32700", rid=None)
        t.eq(c.wait_exit(), 1, "a body cut short by the end of the stream: exit status 1")
        t.eq(c.stderr(), "", "a body cut short: nothing on stderr")
    with lsplib.Client(t.segc) as c:
        c.initialize()
        c.send_raw(b"Content-Length: 10\r\n")
        c.close_stdin()
        expect_error(c.wait_response(None), PARSE_ERROR, "a header cut short by the end of the stream: -32700",
                     rid=None)
        t.eq(c.wait_exit(), 1, "a header cut short: exit status 1")
        t.eq(c.stderr(), "", "a header cut short: nothing on stderr")


def exit_status():
    for what, steps, status in (
            ("exit without shutdown", lambda c: (c.initialize(), c.notify("exit")), 1),
            ("exit before initialize", lambda c: c.notify("exit"), 1),
            ("end of input without shutdown",
             lambda c: (c.initialize(), c.open("untitled:open-at-eof", "segc: 1\n"), c.close_stdin()), 1),
            ("end of input after shutdown", lambda c: (c.initialize(), c.shutdown(), c.close_stdin()), 0),
            ("end of input at once", lambda c: c.close_stdin(), 1)):
        with lsplib.Client(t.segc) as c:
            steps(c)
            t.eq(c.wait_exit(), status, "%s: status %d" % (what, status))
            t.eq(c.stderr(), "", "%s: nothing on stderr" % what)
    with lsplib.Client(t.segc) as c:
        # Messages after exit are not read.
        c.initialize()
        c.shutdown()
        c.notify("exit")
        try:
            c.send({"jsonrpc": "2.0", "id": "late", "method": "shutdown"})
        except lsplib.LspError:
            pass
        t.eq(c.wait_exit(), 0, "exit, then more input: status 0")
        t.check(not c.responses, "exit, then more input: nothing answered", c.responses)


def not_open():
    with lsplib.Client(t.segc) as c:
        caps = c.initialize()["capabilities"]
        for cap, method in DOC_REQUESTS:
            if not t.check(caps.get(cap), "initialize: %s announced" % cap):
                continue
            params = {"textDocument": {"uri": "file:///nowhere/not-open.yaml"},
                      "position": {"line": 0, "character": 0}, "context": {"includeDeclaration": True,
                                                                            "diagnostics": []},
                      "range": lsplib.lsp_range((0, 0), (0, 0))}
            expect_error(c.request(method, params), INVALID_PARAMS, "%s on a document that is not open: -32602"
                         % method)
            expect_error(c.request(method, {}), INVALID_PARAMS, "%s without a textDocument: -32602" % method)
        finish(c, "not open")


def log_option():
    log = os.path.join(t.dir, "lsp.log")
    with lsplib.Client(t.segc, args=["--stdio", "--log", log]) as c:
        c.initialize()
        c.open("untitled:logged", "segc: 1\n")
        finish(c, "--log")
    text = lsplib.read(log)
    t.check(re.search(r'^<- .*"method":\s*"initialize"', text, re.M) and
            re.search(r'^-> .*"serverInfo"', text, re.M) and
            re.search(r'^-> .*publishDiagnostics.*untitled:logged', text, re.M),
            "--log FILE: what was received and sent", text[:500])
    with lsplib.Client(t.segc, args=["--log", os.path.join(t.dir, "no", "such", "dir", "x.log")]) as c:
        st = c.wait_exit()
        t.check(st == 2 and "--log" in c.stderr(), "--log into a missing directory: a usage error (status 2)",
                "status %s, stderr %r" % (st, c.stderr()))


def more_framing():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        # Blank lines between messages, a tab before the length and blanks after it.
        body = b'{"jsonrpc":"2.0","id":"f1","method":"segc/none"}'
        c.send_raw(b"\r\n\r\nContent-Length:\t %d  \r\n\r\n%s" % (len(body), body))
        expect_error(c.wait_response("f1"), METHOD_NOT_FOUND, "blank lines before a message, blanks around its length",
                     rid="f1")
        # A second Content-Length (the same value): refused, the body read through.
        body = b'{"jsonrpc":"2.0","id":"f2","method":"shutdown"}'
        c.send_raw(b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n%s" % (len(body), len(body), body))
        r = c.wait_response(None)
        expect_error(r, PARSE_ERROR, "Content-Length twice: -32700 with id null", rid=None)
        t.eq(r["error"]["message"], "Content-Length given twice", "Content-Length twice: the message says so")
        alive(c, "Content-Length twice")
        # 70 header lines: refused, the body (its length is among them) read through.
        body = b'{"jsonrpc":"2.0","id":"f3","method":"shutdown"}'
        c.send_raw(b"X-Filler: 1\r\n" * 70 + b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        r = c.wait_response(None)
        expect_error(r, PARSE_ERROR, "70 header lines: -32700 with id null", rid=None)
        t.eq(r["error"]["message"], "too many header lines", "70 header lines: the message says so")
        alive(c, "70 header lines")
        t.check("f2" not in c.responses and "f3" not in c.responses, "refused messages are not run")
        finish(c, "more framing")


def more_requests():
    with lsplib.Client(t.segc) as c:
        c.initialize()
        # A method name cut at 200 bytes inside a character: '?' for the cut byte.
        r = c.request("a" * 199 + "\u00e9", {})
        expect_error(r, METHOD_NOT_FOUND, "a 201-byte method name: -32601")
        t.eq(r["error"]["message"], "no method '%s?'" % ("a" * 199), "a method name cut inside a character: '?'")
        # A notification's method sent as a request has no request handler.
        r = c.request("textDocument/didOpen", {"textDocument": {"uri": "untitled:req", "text": "segc: 1\n"}})
        expect_error(r, METHOD_NOT_FOUND, "didOpen as a request: -32601")
        t.eq(r["error"]["message"], "no method 'textDocument/didOpen'", "didOpen as a request: the message")
        t.eq(c.publishes("untitled:req"), 0, "didOpen as a request: nothing opened")
        # params an array (by position): allowed by JSON-RPC, but no textDocument in it.
        r = c.request("textDocument/hover", [{"textDocument": {"uri": "untitled:req"}}])
        expect_error(r, INVALID_PARAMS, "hover with params an array: -32602")
        t.eq(r["error"]["message"], "no textDocument.uri", "params an array: no textDocument.uri")
        # id null is not a request id.
        c.send({"jsonrpc": "2.0", "id": None, "method": "shutdown"})
        expect_error(c.wait_response(None), INVALID_REQUEST, "id null: -32600 with id null", rid=None)
        # shutdown as a notification: dropped, the server is not shutting down.
        c.notify("shutdown")
        alive(c, "shutdown as a notification")
        uri = c.open("untitled:still-open", "segc: 1\n")
        t.eq(c.publishes(uri), 1, "shutdown as a notification: documents still open")
        finish(c, "more requests")


def positions():
    """Positions a request cannot use, and positions past the end."""
    text = ('segc: 1\nboard: { name: p, wddm: "1.3" }\nsegments:\n  - { name: s, kind: memory, size: a }\n'
            'constants:\n  a: 1GiB\n  b: a + 1')
    with lsplib.Client(t.segc) as c:
        c.initialize()
        uri = c.open("untitled:positions.yaml", text)
        for what, p in (("no position", None), ("line -1", {"line": -1, "character": 0}),
                        ("character -1", {"line": 0, "character": -1}), ("line a string", {"line": "0", "character": 0}),
                        ("no character", {"line": 0}), ("a position that is a list", [0, 0])):
            params = {"textDocument": {"uri": uri}}
            if p is not None:
                params["position"] = p
            for method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
                r = c.request(method, params)
                expect_error(r, INVALID_PARAMS, "%s with %s: -32602" % (method, what))
                t.eq(r.get("error", {}).get("message"), "no valid position", "%s with %s: the message" % (method, what))
        # Past the end of the last line (no line break after it): its end,
        # on `1` of `a + 1`; past the last line: the end of the text.
        want = {"contents": {"kind": "markdown", "value": "constant `b`\n\n`0x40000001 (\u22481.00 GiB) = 1 GiB + 1`"},
                "range": lsplib.lsp_range((6, 5), (6, 10))}
        for p in ({"line": 6, "character": 99}, {"line": 40, "character": 0}):
            t.eq(c.result("textDocument/hover", {"textDocument": {"uri": uri}, "position": p}), want,
                 "hover at %s: the end of the text" % json.dumps(p))
        finish(c, "positions")


def documents():
    """didOpen, didChange and didClose that name no open document or carry
    no text, and edits that cannot be applied: the server keeps what it has."""
    log = os.path.join(t.dir, "documents.log")
    text = "segc: 1\nconstants:\n  a: 1GiB\n"
    with lsplib.Client(t.segc, args=["--log", log]) as c:
        c.initialize()
        symbols = lambda uri: c.result("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
        consts = lambda uri: [(k["name"], k.get("detail")) for s in symbols(uri) if s["name"] == "constants"
                              for k in s["children"]]
        for what, td in (("no text", {"uri": "untitled:notext", "version": 1}),
                         ("text a number", {"uri": "untitled:notext", "version": 1, "text": 5}),
                         ("no uri", {"version": 1, "text": text})):
            c.notify("textDocument/didOpen", {"textDocument": td})
            c.sync()
            t.eq(c.publishes("untitled:notext"), 0, "didOpen with %s: nothing opened" % what)
        r = c.request("textDocument/documentSymbol", {"textDocument": {"uri": "untitled:notext"}})
        expect_error(r, INVALID_PARAMS, "didOpen with no text: the document is not open")
        t.eq(r["error"]["message"], "untitled:notext is not open", "a document that is not open: the message")
        uri = c.open("untitled:docs.yaml", text)
        t.eq(consts(uri), [("a", "1GiB")], "didOpen: the text")
        # didOpen again for an open URI: its new text and version.
        c.open(uri, text.replace("1GiB", "2GiB"), version=7)
        t.eq(consts(uri), [("a", "2GiB")], "didOpen of an open document: the new text")
        t.eq(c.published[uri][-1]["version"], 7, "didOpen of an open document: its version")
        n = c.publishes(uri)
        # Changes that cannot be applied: text not a string, a range with
        # no valid start or end, an end before the start.
        bad = [{"text": 5}, {"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}},
                             "text": "x"},
               {"range": {"start": {"line": 0, "character": 0}}, "text": "x"},
               {"range": lsplib.lsp_range((2, 5), (2, 3)), "text": "x"}]
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 8}, "contentChanges": bad})
        c.sync()
        t.eq(consts(uri), [("a", "2GiB")], "changes that cannot be applied: the text as it was")
        t.eq((c.publishes(uri), c.published[uri][-1]["version"]), (n + 1, 8),
             "changes that cannot be applied: published again for the new version")
        logged = lsplib.read(log).count("segc: a change to %s could not be applied" % uri)
        t.eq(logged, len(bad), "--log: each change that could not be applied")
        # A malformed message with --log: answered, nothing logged for it.
        before = lsplib.read(log)
        c.send_raw(b"Content-Length: x\r\n\r\n")
        expect_error(c.wait_response(None), PARSE_ERROR, "--log: a malformed message is answered", rid=None)
        t.check("Content-Length: x" not in lsplib.read(log)[len(before):], "--log: no body logged for it")
        # didChange with no list of changes, or for a document not open: nothing.
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 9}, "contentChanges": {"text": ""}})
        c.notify("textDocument/didChange", {"textDocument": {"uri": "untitled:nowhere", "version": 2},
                                            "contentChanges": [{"text": "segc: 1\n"}]})
        c.notify("textDocument/didClose", {"textDocument": {"uri": "untitled:nowhere"}})
        c.sync()
        t.eq((c.publishes(uri), c.publishes("untitled:nowhere")), (n + 1, 0),
             "didChange without a list, didChange and didClose of a document not open: nothing published")
        # An edit past the end of a line: at its end; a CRLF line's end is before its CR.
        c.change(uri, None, "segc: 1\r\nconstants:\r\n  a: 1GiB\r\n", version=10)
        c.change(uri, lsplib.lsp_range((2, 40), (2, 40)), " + 1", version=11)
        t.eq(consts(uri), [("a", "1GiB + 1")], "an edit past the end of a CRLF line: before its CR")
        # A surrogate pair: a position inside it is before it.
        c.change(uri, None, 'segc: 1\nconstants:\n  a: "\U0001F600b"\n', version=12)
        c.change(uri, lsplib.lsp_range((2, 7), (2, 7)), "x", version=13)
        t.eq(consts(uri), [("a", "x\U0001F600b")], "an edit inside a surrogate pair: before the pair")
        c.change(uri, lsplib.lsp_range((2, 8), (2, 9)), "", version=14)
        t.eq(consts(uri), [("a", "xb")], "an edit over a surrogate pair (2 UTF-16 units)")
        # An edit that spans lines, and one that leaves no text.
        c.change(uri, lsplib.lsp_range((1, 10), (2, 11)), " { c: 3 }", version=15)
        t.eq(consts(uri), [("c", "3")], "an edit across lines")
        c.change(uri, lsplib.lsp_range((0, 0), (5, 0)), "", version=16)
        t.eq((c.diags[uri], symbols(uri)), ([], []), "an edit that removes the whole text: no diagnostics, no symbols")
        # A document ending in a character past U+007F, no line break: a
        # position past it is the end of the text.
        c.change(uri, None, "segc: 1\nconstants:\n  a: \u00e9", version=17)
        c.change(uri, lsplib.lsp_range((2, 50), (2, 50)), "t\u00e9", version=18)
        t.eq(consts(uri), [("a", "\u00e9t\u00e9")], "an edit past a last line ending in '\u00e9'")
        finish(c, "documents")


def void_params():
    """Methods whose params LSP declares void (shutdown, exit) take
    "params": null as some clients send it (Emacs Eglot, lsp4ij); every
    other method still refuses it."""
    with lsplib.Client(t.segc) as c:
        c.initialize()
        for method, what in (("textDocument/hover", "hover"), ("initialize", "initialize again"),
                             ("no/such/method", "an unknown method")):
            c.send({"jsonrpc": "2.0", "id": "n-" + method, "method": method, "params": None})
            expect_error(c.wait_response("n-" + method), INVALID_REQUEST, "%s with params null: -32600" % what)
        c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": None})
        expect_error(c.wait_response(None), INVALID_REQUEST, "didOpen with params null: -32600 with id null",
                     rid=None)
        alive(c, "didOpen with params null")
        c.send({"jsonrpc": "2.0", "id": "sd", "method": "shutdown", "params": None})
        r = c.wait_response("sd")
        t.check("result" in r and r["result"] is None and "error" not in r, "shutdown with params null: result null",
                json.dumps(r))
        c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        t.eq(c.wait_exit(), 0, "exit with params null after shutdown: status 0")
        t.eq(c.stderr(), "", "params null: nothing on stderr")
    # Without the shutdown, exit with params null is still an exit: status 1.
    with lsplib.Client(t.segc) as c:
        c.initialize()
        c.send({"jsonrpc": "2.0", "method": "exit", "params": None})
        t.eq(c.wait_exit(), 1, "exit with params null, no shutdown: status 1")
    # Absent params, as LSP writes it, stay accepted.
    with lsplib.Client(t.segc) as c:
        c.initialize()
        c.send({"jsonrpc": "2.0", "id": "sd", "method": "shutdown"})
        t.check("result" in c.wait_response("sd"), "shutdown without params: a result")
        c.send({"jsonrpc": "2.0", "method": "exit"})
        t.eq(c.wait_exit(), 0, "exit without params: status 0")


def encodings_offered():
    for what, general, want in (("a list with a number first", {"positionEncodings": [8, "utf-8"]}, "utf-8"),
                                ("not a list", {"positionEncodings": "utf-8"}, "utf-16")):
        with lsplib.Client(t.segc) as c:
            r = c.initialize(capabilities={"general": general})
            t.eq(r["capabilities"]["positionEncoding"], want, "positionEncodings %s: %s" % (what, want))
            finish(c, "positionEncodings %s" % what)


def client_gone():
    # With SIGPIPE ignored (as a client may start it), a write to a client
    # that closed its end fails: the server stops at once, status 1 (no
    # shutdown), though its input is still open.
    p = subprocess.Popen([t.segc, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         restore_signals=False)
    try:
        p.stdout.close()
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                           "params": {"processId": None, "capabilities": {}}}).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        p.stdin.flush()
        try:
            st = p.wait(timeout=lsplib.TIMEOUT)
        except subprocess.TimeoutExpired:
            st = "still running"
        t.eq(st, 1, "the client's end closed: the server ends with status 1")
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stdin.close()
        t.eq(p.stderr.read().decode("utf-8", "replace"), "", "the client's end closed: nothing on stderr")
        p.stderr.close()


for case in (lifecycle, encodings, before_initialize, unknown_methods, invalid_requests, framing,
             long_header_with_body, oversized, truncated, exit_status, not_open, log_option,
             more_framing, more_requests, positions, documents, void_params, encodings_offered, client_gone):
    t.run(case)
t.end()
