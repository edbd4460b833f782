-- SPDX-License-Identifier: MIT
-- Neovim's own LSP client on segc lsp: samples/discrete.yaml has no
-- diagnostics; a bank given a size with nvim_buf_set_lines (an incremental
-- change) leaves a gap, and vim.diagnostic shows banks-cover where
-- `segc check --diagnostics=json` puts it (line and byte column, which
-- Neovim converts from the server's UTF-16 positions).
local T = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/lib.lua')

T.run('diagnostics', function()
  local dir = T.scratch('diagnostics')
  local src = T.read(T.root .. '/samples/discrete.yaml')
  local path = T.write(dir .. '/discrete.yaml', src)
  local buf, client = T.start(path)
  T.eq(client.server_capabilities.textDocumentSync.change, 2, 'the server asks for incremental changes')
  T.wait_publish(buf, 0, 'diagnostics for discrete.yaml')
  T.eq(vim.diagnostic.get(buf), {}, 'discrete.yaml: no diagnostics')

  -- The last bank, which takes what is left, gets a size: a gap.
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local at
  for i, l in ipairs(lines) do
    if l:find('- { name: part3 }', 1, true) then at = i end
  end
  assert(at, 'discrete.yaml has bank part3')
  local edited = lines[at]:gsub('part3 }', 'part3, size: 512MiB }')
  local seen = T.published[buf]
  vim.api.nvim_buf_set_lines(buf, at - 1, at, false, { edited })
  T.wait_publish(buf, seen, 'diagnostics after the edit')

  lines[at] = edited
  local copy = T.write(dir .. '/edited.yaml', table.concat(lines, '\n') .. '\n')
  local want = T.check_json(copy)
  T.check(#want == 1 and want[1].rule == 'banks-cover', 'check finds banks-cover in the edited text',
    vim.inspect(want))
  local got = vim.diagnostic.get(buf)
  T.check(#got == 1 and got[1].code == 'banks-cover', 'vim.diagnostic: one banks-cover (its code field)',
    vim.inspect(got))
  local g, w = got[1] or {}, want[1] or {}
  T.eq({ g.lnum, g.col, g.end_lnum, g.end_col }, { w.line - 1, w.column - 1, w.end_line - 1, w.end_column - 1 },
    'banks-cover at check\'s line and column')
  T.eq(g.severity, vim.diagnostic.severity.ERROR, 'banks-cover is an error')
  T.eq(g.source, 'segc', 'the source is segc')
  T.check(g.message and g.message:find(w.message, 1, true) == 1, 'the message is check\'s', g.message)

  -- Undone: no diagnostics again.
  seen = T.published[buf]
  vim.cmd('silent normal! u')
  T.wait_publish(buf, seen, 'diagnostics after undo')
  T.eq(vim.diagnostic.get(buf), {}, 'the edit undone: no diagnostics')
end)
