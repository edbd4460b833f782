Content-Length: 122

{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":"file:///segc-fuzz","capabilities":{}}}Content-Length: 44

{"jsonrpc":"2.0","id":2,"method":"shutdown"}Content-Length: 33

{"jsonrpc":"2.0","method":"exit"}