Content-Length: 155

{"jsonrpc":"2.0","id":0,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"},"position":{"line":0,"character":0}}}Content-Type: application/vscode-jsonrpc; charset=utf-8

Content-Length: -4

Content-Length: 3

{x}Content-Length: 48

[{"jsonrpc":"2.0","id":1,"method":"initialize"}]Content-Length: 46

{"jsonrpc":"1.0","id":1,"method":"initialize"}Content-Length: 52

{"jsonrpc":"2.0","id":{"x":1},"method":"initialize"}Content-Length: 57

{"jsonrpc":"2.0","id":1,"method":"initialize","params":3}Content-Length: 114

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"general":{"positionEncodings":"utf-8"}}}}Content-Length: 122

{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"processId":null,"rootUri":"file:///segc-fuzz","capabilities":{}}}Content-Length: 39

{"jsonrpc":"2.0","id":99,"result":null}Content-Length: 57

{"jsonrpc":"2.0","id":3,"method":"$/unknown","params":{}}Content-Length: 62

{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":3}}Content-Length: 624

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml","version":1,"text":"segc: 1\nboard: { name: fuzz_x1, wddm: \"2.0\", arch: x64 }\nconstants:\n  vram: 2GiB\nbars:\n  fb: { index: 0, size: 256MiB }\nsegments:\n  - name: visible\n    kind: memory\n    size: bar.fb.size\n    cpu_visible: { bar: fb }\n  - name: local\n    kind: memory\n    base: visible.end\n    size: vram - visible.size\n    banks:\n      - { name: low, size: 256MiB }\n      - { name: rest }\n  - name: gart\n    kind: aperture\n    base: 64GiB\n    size: 512MiB\npaging:\n  segment: gart\n"}}}Content-Length: 345

{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":2,"character":0}},"text":"x"},{"range":{"start":{"line":999,"character":0},"end":{"line":999,"character":5}},"text":"tail: 1\n"},{"text":7}]}}Content-Length: 140

{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:Untitled-1","version":1,"text":"not: a spec\n"}}}Content-Length: 44

{"jsonrpc":"2.0","id":4,"method":"shutdown"}Content-Length: 155

{"jsonrpc":"2.0","id":5,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///segc-fuzz/board.yaml"},"position":{"line":0,"character":0}}}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}Content-Length: 44

{"jsonrpc":"2.0","id":6,"method":"shutdown"}