-- SPDX-License-Identifier: MIT
-- Neovim's client on segc lsp beyond diagnostics, on samples/discrete.yaml
-- (a WDDM 1.3 board): hover on an expression shows its value; completion
-- inside `flags: [` offers exactly the flags the board's WDDM version
-- allows (found independently: `segc check` on one spec per flag); go to
-- definition of a constant used in an expression lands on its key; the
-- code action for banks-cover, applied, leaves a text check finds clean.
local T = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/lib.lua')

-- The 0-based line of the first line of buf containing `needle`, and the
-- byte column of needle in it.
local function find(buf, needle)
  for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local c = l:find(needle, 1, true)
    if c then return i - 1, c - 1 end
  end
  error('no line contains ' .. needle)
end

-- An LSP position (UTF-16, which the server uses with Neovim 0.7) for a
-- byte column of buf's line.
local function pos(buf, line, col)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  return { line = line, character = vim.str_utfindex(text, col) }
end

local function hover_text(result)
  local c = result and result.contents
  if type(c) == 'string' then return c end
  if type(c) == 'table' and c.value then return c.value end
  local parts = {}
  for _, p in ipairs(type(c) == 'table' and c or {}) do parts[#parts + 1] = type(p) == 'string' and p or p.value end
  return table.concat(parts, '\n')
end

local function hover(client, buf)
  local line, col = find(buf, 'size: vram - visible.size')
  col = col + #'size: '
  local r, err = T.request(client, buf, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos(buf, line, col) })
  local text = hover_text(r)
  -- vram - visible.size = 8 GiB - 2 GiB (the sample's constant and BAR).
  local want = string.format('0x%X', (8 - 2) * 2 ^ 30)
  T.check(text:find(want, 1, true) and text:find('GiB', 1, true),
    'hover on an expression: its value, ' .. want .. ', in hex and GiB', err or text)
end

-- The flags `segc check` accepts in the segment of buf's first line with
-- `needle`: those that, written there as `flags: [F]` alone or with one
-- flag accepted alone (`flags: [F, G]`), add no finding to those of
-- `flags: []` (each text a file of its own, all checked in one run).  The
-- candidates are the JSON Schema's flags; too_new: those refused for the
-- board's WDDM version (flag-wddm-version).
local function valid_flags(dir, buf, needle)
  local schema = vim.fn.json_decode(T.read(T.root .. '/schema/segc.schema.json'))
  local line = find(buf, needle)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local indent = lines[line + 1]:match('^(%s*)')
  local function spec(name, list)
    local copy = vim.list_extend({}, lines)
    copy[line + 1] = indent .. 'flags: [' .. table.concat(list, ', ') .. ']'
    return T.write(dir .. '/' .. name .. '.yaml', table.concat(copy, '\n') .. '\n')
  end
  local function findings(paths)
    local out = vim.fn.json_decode(vim.fn.system(vim.list_extend({ T.segc, 'check', '--diagnostics=json' }, paths)))
    local sets = {}
    for i, entry in ipairs(out.files) do
      sets[i] = {}
      for _, d in ipairs(entry.diagnostics) do sets[i][#sets[i] + 1] = d end
    end
    return sets
  end
  local base = {}
  for _, d in ipairs(findings({ spec('flags-none', {}) })[1]) do
    base[d.rule .. ':' .. d.line .. ':' .. d.column] = true
  end
  local function adds(set)
    for _, d in ipairs(set) do
      if not base[d.rule .. ':' .. d.line .. ':' .. d.column] then return true end
    end
    return false
  end
  local flags, paths = {}, {}
  for _, f in ipairs(schema['$defs'].flag.anyOf) do
    if f.const then
      flags[#flags + 1] = f.const
      paths[#paths + 1] = spec('flag-' .. f.const, { f.const })
    end
  end
  local valid, too_new, alone, rest = {}, {}, {}, {}
  for i, set in ipairs(findings(paths)) do
    for _, d in ipairs(set) do
      if d.rule == 'flag-wddm-version' then too_new[#too_new + 1] = flags[i] end
    end
    if adds(set) then rest[#rest + 1] = flags[i] else alone[#alone + 1] = flags[i] end
  end
  local pairs_of, pair_paths = {}, {}
  for _, f in ipairs(rest) do
    for _, g in ipairs(alone) do
      pairs_of[#pairs_of + 1] = f
      pair_paths[#pair_paths + 1] = spec('pair-' .. f .. '-' .. g, { f, g })
    end
  end
  local seen = {}
  for _, f in ipairs(alone) do valid[#valid + 1] = f; seen[f] = true end
  for i, set in ipairs(#pair_paths > 0 and findings(pair_paths) or {}) do
    if not adds(set) and not seen[pairs_of[i]] then
      valid[#valid + 1] = pairs_of[i]
      seen[pairs_of[i]] = true
    end
  end
  table.sort(valid)
  return valid, too_new
end

-- Completion between the brackets of the first line of buf with `needle`
-- (a memory segment's flags), made `flags: []` for the request.
local function complete_flags(client, buf, needle)
  local line, col = find(buf, needle)
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { text:sub(1, col) .. 'flags: []' })
  local r, err = T.request(client, buf, 'textDocument/completion',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos(buf, line, col + #'flags: [') })
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { text })
  local offered, seen = {}, {}
  for _, it in ipairs(r and (r.items or r) or {}) do
    local word = it.insertText or (it.textEdit and it.textEdit.newText) or it.label
    if not seen[word] then offered[#offered + 1] = word; seen[word] = true end
  end
  table.sort(offered)
  return offered, seen, err
end

local function completion(client, buf, dir)
  local valid, too_new = valid_flags(dir, buf, 'flags: [direct_flip]')
  local offered, seen, err = complete_flags(client, buf, 'flags: [direct_flip]')
  T.check(vim.tbl_contains(too_new, 'use_64kb_pages'), 'segc check refuses use_64kb_pages on a WDDM 1.3 board',
    vim.inspect(too_new))
  T.check(#offered > 0 and not seen.use_64kb_pages,
    'completion in flags: [ on WDDM 1.3: no use_64kb_pages (WDDM 2.0)', err or vim.inspect(offered))
  T.eq(offered, valid, 'completion in flags: [ on WDDM 1.3: exactly the flags check accepts there')

  -- A WDDM 2.2 board (samples/wddm2.yaml) is offered the 2.x flags.
  local path = T.write(dir .. '/wddm2.yaml', T.read(T.root .. '/samples/wddm2.yaml'))
  local buf2, client2 = T.start(path)
  valid = valid_flags(dir, buf2, 'flags: [use_64kb_pages')
  offered, seen, err = complete_flags(client2, buf2, 'flags: [use_64kb_pages')
  T.check(seen.use_64kb_pages, 'completion in flags: [ on WDDM 2.2: use_64kb_pages', err or vim.inspect(offered))
  T.eq(offered, valid, 'completion in flags: [ on WDDM 2.2: exactly the flags check accepts there')
  vim.cmd('buffer ' .. buf)
end

local function definition(client, buf)
  local line, col = find(buf, 'size: vram - visible.size')
  local r, err = T.request(client, buf, 'textDocument/definition',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = pos(buf, line, col + #'size: ' + 1) })
  local loc = r and (r.uri and r or r[1]) or {}
  local want_line, want_col = find(buf, 'vram: 8GiB')
  local start = loc.range and loc.range.start or (loc.targetSelectionRange or {}).start or {}
  T.eq({ loc.uri or loc.targetUri, start.line, start.character },
    { vim.uri_from_bufnr(buf), want_line, pos(buf, want_line, want_col).character },
    'definition of constant vram used in an expression: its key under constants:' .. (err and (' ' .. err) or ''))
end

local function code_action(client, buf, dir)
  local line, col = find(buf, '- { name: part3 }')
  local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
  local before = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local seen = T.published[buf] or 0
  vim.api.nvim_buf_set_lines(buf, line, line + 1, false, { (text:gsub('part3 }', 'part3, size: 512MiB }')) })
  T.wait_publish(buf, seen, 'diagnostics after the bank gap')
  
  local lsp_diags = {}
  for _, d in ipairs(T.raw[buf] or {}) do
    if d.code == 'banks-cover' then lsp_diags[#lsp_diags + 1] = d end
  end
  T.check(#lsp_diags == 1, 'the bank gap: one banks-cover to fix', vim.inspect(T.raw[buf]))
  local d = lsp_diags[1] or { range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } } }
  local r, err = T.request(client, buf, 'textDocument/codeAction',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, range = d.range, context = { diagnostics = { d } } })
  local action
  for _, a in ipairs(r or {}) do
    if a.edit and (a.kind == nil or a.kind:find('^quickfix')) then action = action or a end
  end
  if not T.check(action, 'a quickfix code action with an edit for banks-cover', err or vim.inspect(r)) then return end
  seen = T.published[buf] or 0
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  T.wait_publish(buf, seen, 'diagnostics after the quick fix')
  T.eq(vim.diagnostic.get(buf), {}, 'the quick fix applied: no diagnostics')
  local fixed = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local copy = T.write(dir .. '/fixed.yaml', table.concat(fixed, '\n') .. '\n')
  T.eq(T.check_json(copy), {}, 'the quick fix applied: segc check finds the text clean')
  local others = true
  for i, l in ipairs(before) do
    if i ~= line + 1 and fixed[i] ~= l then others = false end
  end
  T.check(others and #fixed == #before, 'the quick fix changed the bank\'s line only',
    table.concat(fixed, '\n', line - 2, line + 4))
end

T.run('features', function()
  local dir = T.scratch('features')
  local path = T.write(dir .. '/discrete.yaml', T.read(T.root .. '/samples/discrete.yaml'))
  local buf, client = T.start(path)
  T.wait_publish(buf, 0, 'diagnostics for discrete.yaml')
  local caps = client.server_capabilities
  for _, f in ipairs({ { 'hoverProvider', hover }, { 'completionProvider', completion },
                       { 'definitionProvider', definition }, { 'codeActionProvider', code_action } }) do
    if T.check(caps[f[1]], 'the server announces ' .. f[1]) then
      local okay, err = xpcall(f[2], debug.traceback, client, buf, dir)
      if not okay then T.bad(f[1], err) end
    end
  end
end)
