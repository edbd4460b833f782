Content-Length: 154

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":1,"rootUri":null,"capabilities":{"general":{"positionEncodings":["utf-8","utf-16"]}}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 643

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///segc-fuzz/base.yaml","languageId":"yaml","version":1,"text":"segc: 1\nboard: { name: fuzz_x1, wddm: \"2.0\", arch: x64 }\nconstants:\n  vram: 2GiB\nbars:\n  fb: { index: 0, size: 256MiB }\nsegments:\n  - name: visible\n    kind: memory\n    size: bar.fb.size\n    cpu_visible: { bar: fb }\n  - name: local\n    kind: memory\n    base: visible.end\n    size: vram - visible.size\n    banks:\n      - { name: low, size: 256MiB }\n      - { name: rest }\n  - name: gart\n    kind: aperture\n    base: 64GiB\n    size: 512MiB\npaging:\n  segment: gart\n"}}}Content-Length: 267

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///segc-fuzz/variant%20%C3%A9.yaml","languageId":"yaml","version":1,"text":"segc: 1\n# carte é✓ 😀\nextends: base.yaml\nboard:\n  name: fuzz_x2\nconstants:\n  vram: 4GiB\n"}}}Content-Length: 240

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///segc-fuzz/base.yaml","version":2},"contentChanges":[{"range":{"start":{"line":20,"character":10},"end":{"line":20,"character":15}},"text":"1GiB"}]}}Content-Length: 359

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///segc-fuzz/variant%20%C3%A9.yaml","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":8},"end":{"line":1,"character":14}},"text":"ü"},{"text":"segc: 1\n# carte é✓ 😀\nextends: base.yaml\nboard:\n  name: fuzz_x2\nconstants:\n  vram: 8GiB\n"}]}}Content-Length: 166

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///segc-fuzz/variant%20%C3%A9.yaml"},"position":{"line":6,"character":9}}}Content-Length: 201

{"jsonrpc":"2.0","id":"r3","method":"textDocument/references","params":{"textDocument":{"uri":"file:///segc-fuzz/base.yaml"},"position":{"line":7,"character":12},"context":{"includeDeclaration":true}}}Content-Length: 239

{"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///segc-fuzz/variant%20%C3%A9.yaml"},"range":{"start":{"line":6,"character":0},"end":{"line":6,"character":12}},"context":{"diagnostics":[]}}}Content-Length: 113

{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///segc-fuzz/base.yaml"}}}Content-Length: 130

{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[{"uri":"file:///segc-fuzz/base.yaml","type":2}]}}Content-Length: 114

{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///segc-fuzz/base.yaml"}}}Content-Length: 44

{"jsonrpc":"2.0","id":5,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}