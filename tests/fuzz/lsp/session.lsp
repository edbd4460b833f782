Content-Length: 122

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///segc-fuzz","capabilities":{}}}Content-Length: 52

{"jsonrpc":"2.0","method":"initialized","params":{}}Content-Length: 644

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml","languageId":"yaml","version":1,"text":"segc: 1\nboard: { name: fuzz_x1, wddm: \"2.0\", arch: x64 }\nconstants:\n  vram: 2GiB\nbars:\n  fb: { index: 0, size: 256MiB }\nsegments:\n  - name: visible\n    kind: memory\n    size: bar.fb.size\n    cpu_visible: { bar: fb }\n  - name: local\n    kind: memory\n    base: visible.end\n    size: vram - visible.size\n    banks:\n      - { name: low, size: 256MiB }\n      - { name: rest }\n  - name: gart\n    kind: aperture\n    base: 64GiB\n    size: 512MiB\npaging:\n  segment: gart\n"}}}Content-Length: 238

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml","version":2},"contentChanges":[{"range":{"start":{"line":3,"character":8},"end":{"line":3,"character":12}},"text":"4GiB"}]}}Content-Length: 157

{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"},"position":{"line":13,"character":12}}}Content-Length: 161

{"jsonrpc":"2.0","id":3,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"},"position":{"line":8,"character":10}}}Content-Length: 336

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml","version":3},"contentChanges":[{"range":{"start":{"line":8,"character":10},"end":{"line":8,"character":16}},"text":"memroy"},{"range":{"start":{"line":20,"character":10},"end":{"line":20,"character":15}},"text":"63GiB"}]}}Content-Length: 162

{"jsonrpc":"2.0","id":4,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"},"position":{"line":13,"character":11}}}Content-Length: 128

{"jsonrpc":"2.0","id":5,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"}}}Content-Length: 115

{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"}}}Content-Length: 44

{"jsonrpc":"2.0","id":6,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}