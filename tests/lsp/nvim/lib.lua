-- SPDX-License-Identifier: MIT
-- lib.lua - what the Neovim tests of segc lsp share (Neovim 0.7: its
-- built-in client through vim.lsp.start_client and buf_attach_client).
-- A test runs headless:
--
--   SEGC=build/segc tmp=DIR nvim --headless -u NONE -i NONE -n -c 'luafile tests/lsp/nvim/test_NAME.lua'
--
-- and prints ok/FAIL/skip lines and "lsp-nvim-NAME: N passed, M failed" on
-- standard output; it quits with status 0 only if nothing failed.  Every
-- wait has a time limit (LSP_TIMEOUT seconds, 20): a server that does not
-- answer fails the test.
local M = { passed = 0, failed = 0, skipped = 0 }

M.segc = assert(os.getenv('SEGC'), 'SEGC names the segc to test')
M.root = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h:h:h:h')
M.timeout = tonumber(os.getenv('LSP_TIMEOUT') or '20') * 1000

local function say(s) io.stdout:write(s .. '\n') end

function M.ok(what) M.passed = M.passed + 1; say('ok   ' .. what) end
function M.bad(what, why)
  M.failed = M.failed + 1
  say('FAIL ' .. what .. (why and (': ' .. tostring(why):gsub('\n', '\n    | ')) or ''))
end
function M.skip(what, why) M.skipped = M.skipped + 1; say('skip ' .. what .. ': ' .. why) end
function M.check(cond, what, why)
  if cond then M.ok(what) else M.bad(what, why) end
  return cond
end
function M.eq(got, want, what)
  return M.check(vim.deep_equal(got, want), what, 'got ' .. vim.inspect(got) .. ', expected ' .. vim.inspect(want))
end

-- A fresh directory below $tmp (run.sh's scratch directory).
function M.scratch(name)
  local dir = (os.getenv('tmp') or vim.fn.tempname()) .. '/nvim-' .. name
  vim.fn.mkdir(dir, 'p')
  return dir
end

function M.read(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

function M.write(path, text)
  local f = assert(io.open(path, 'wb'))
  f:write(text)
  f:close()
  return path
end

-- `segc check --diagnostics=json FILE`: the diagnostics of its one file.
function M.check_json(path)
  local out = vim.fn.system({ M.segc, 'check', '--diagnostics=json', path })
  return vim.fn.json_decode(out).files[1].diagnostics
end

-- publishDiagnostics received, per buffer (the handler counts them), and
-- the last list as the server sent it.
M.published = {}
M.raw = {}
M.version = {}

-- Edits path in a new buffer and attaches a segc lsp client to it; returns
-- the buffer and the client.
function M.start(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'segc',
    cmd = { M.segc, 'lsp' },
    root_dir = vim.fn.fnamemodify(path, ':h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        local b = vim.uri_to_bufnr(result.uri)
        M.published[b] = (M.published[b] or 0) + 1
        M.raw[b] = result.diagnostics
        M.version[b] = result.version
        return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
      end,
    },
  })
  if not id then
    M.bad('start segc lsp', 'vim.lsp.start_client failed')
    M.finish()
  end
  vim.lsp.buf_attach_client(buf, id)
  local client = vim.lsp.get_client_by_id(id)
  M.wait(function() return client.initialized end, 'the server initializes')
  return buf, client
end

-- Waits until cond() is true; a failure (and false) after the time limit.
function M.wait(cond, what)
  if vim.wait(M.timeout, cond, 20) then return true end
  M.bad(what, 'not within ' .. M.timeout / 1000 .. ' s')
  return false
end

-- Waits for the next publishDiagnostics of buf after `seen` of them.
-- Waits for diagnostics of the buffer's current text: a publish after the
-- first `seen` ones, for the version Neovim last sent (a change is sent
-- after a debounce, so an earlier edit's diagnostics may still arrive).
function M.wait_publish(buf, seen, what)
  return M.wait(function()
    return (M.published[buf] or 0) > seen and M.version[buf] == vim.lsp.util.buf_versions[buf]
  end, what)
end

-- A synchronous request to the server: its result, or nil and the error.
function M.request(client, buf, method, params)
  local resp = client.request_sync(method, params, M.timeout, buf)
  if not resp then return nil, 'no answer within ' .. M.timeout / 1000 .. ' s' end
  if resp.err then return nil, vim.inspect(resp.err) end
  return resp.result
end

-- The closing line; stops the clients, then quits nvim with the status.
function M.finish()
  say(string.format('%s: %d passed, %d failed%s', M.name or 'lsp-nvim', M.passed, M.failed,
    M.skipped > 0 and string.format(', %d skipped', M.skipped) or ''))
  io.stdout:flush()
  vim.lsp.stop_client(vim.lsp.get_active_clients())
  vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  if M.failed > 0 then vim.cmd('cquit 1') else vim.cmd('qall!') end
end

-- Runs fn; an error in it is one failure, and the test still closes.
function M.run(name, fn)
  M.name = 'lsp-nvim-' .. name
  local okay, err = xpcall(fn, debug.traceback)
  if not okay then M.bad(name, err) end
  M.finish()
end

return M
