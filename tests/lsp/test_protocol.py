# SPDX-License-Identifier: MIT
"""segc lsp: the protocol (lifecycle, framing, JSON-RPC errors)."""
import lsplib

t = lsplib.Test("protocol")


def lifecycle():
    with lsplib.Client(t.segc) as c:
        r = c.initialize()
        caps = r.get("capabilities", {})
        sync = caps.get("textDocumentSync")
        t.check(isinstance(sync, dict) and sync.get("change") == 2, "initialize: incremental sync (change 2)",
                "textDocumentSync %r" % sync)
        t.eq(caps.get("positionEncoding"), "utf-16", "initialize: utf-16 positions by default")
        t.eq(r.get("serverInfo", {}).get("name"), "segc", "initialize: serverInfo.name")
        r = c.shutdown()
        t.check("result" in r and r["result"] is None, "shutdown: result null", r)
        t.eq(c.exit(), 0, "exit after shutdown: status 0")
        t.eq(c.stderr(), "", "lifecycle: nothing on stderr")


t.run(lifecycle)
t.end()
