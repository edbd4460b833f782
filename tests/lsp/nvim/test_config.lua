-- SPDX-License-Identifier: MIT
-- The Neovim set-up doc/editors.md shows (editors/neovim/segc.lua), as a
-- user has it: sourced, with the segc under test first on PATH, it starts
-- segc lsp for a YAML buffer and not for another file, attaches a second
-- YAML buffer to the same client, and the diagnostics of a broken spec
-- arrive.
local T = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/lib.lua')

T.run('config', function()
  local dir = T.scratch('config')
  vim.env.PATH = vim.fn.fnamemodify(T.segc, ':h') .. ':' .. vim.env.PATH
  T.check(vim.fn.exepath('segc') == vim.fn.fnamemodify(T.segc, ':p'), 'segc on PATH is the one under test',
    vim.fn.exepath('segc'))
  -- -u NONE starts without filetype detection, which a user's Neovim has.
  vim.cmd('filetype on')
  vim.cmd('luafile ' .. vim.fn.fnameescape(T.root .. '/editors/neovim/segc.lua'))

  vim.cmd('edit ' .. vim.fn.fnameescape(T.write(dir .. '/notes.txt', 'not yaml\n')))
  T.eq(#vim.lsp.get_active_clients(), 0, 'no server for a file that is not YAML')

  local src = T.read(T.root .. '/samples/discrete.yaml'):gsub('vram: 8GiB', 'vram: 8GB', 1)
  vim.cmd('edit ' .. vim.fn.fnameescape(T.write(dir .. '/board.yaml', src)))
  local buf = vim.api.nvim_get_current_buf()
  T.wait(function() return #vim.diagnostic.get(buf) > 0 end, 'diagnostics for board.yaml')
  local got = vim.diagnostic.get(buf)
  T.check(got[1] and got[1].code == 'expr-unit', 'board.yaml: the decimal unit found (expr-unit)', vim.inspect(got))
  T.eq(#vim.lsp.get_active_clients(), 1, 'one segc client')

  vim.cmd('edit ' .. vim.fn.fnameescape(T.write(dir .. '/other.yaml', T.read(T.root .. '/samples/agp.yaml'))))
  local other = vim.api.nvim_get_current_buf()
  T.eq(#vim.lsp.get_active_clients(), 1, 'a second YAML buffer: still one client')
  T.check(vim.lsp.buf_is_attached(other, vim.lsp.get_active_clients()[1].id), 'the second buffer is attached to it',
    'not attached')
end)
