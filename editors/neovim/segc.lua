-- SPDX-License-Identifier: MIT
-- segc lsp for every YAML buffer, in Neovim 0.7 or later (init.lua, or
-- :luafile this file): the client is started once and each YAML buffer
-- attached to it.
local segc_client
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'yaml',
  callback = function(args)
    if segc_client == nil or vim.lsp.get_client_by_id(segc_client) == nil then
      segc_client = vim.lsp.start_client({ name = 'segc', cmd = { 'segc', 'lsp' }, root_dir = vim.fn.getcwd() })
    end
    if segc_client ~= nil then
      vim.lsp.buf_attach_client(args.buf, segc_client)
    end
  end,
})
