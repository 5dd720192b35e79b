-- One headless Neovim session with `vgc lsp` (run by cli/tests/lsp_clients.rs as
-- `nvim --headless -n -u nvim_session.lua FILE`): the built-in LSP client is started on the Go file (vim.lsp.start
-- from Neovim 0.8 on; vim.lsp.start_client and buf_attach_client on 0.7, Debian 12's), a misspelt tag is typed
-- above the first `+k8s:maxItems=16` line (`O` in normal mode, then the text), and the diagnostics Neovim holds
-- for the buffer are written as JSON to $VGC_NVIM_OUT before quitting. Environment: VGC_BIN, VGC_NVIM_OUT,
-- VGC_NVIM_TIMEOUT_MS.
local vgc = assert(os.getenv("VGC_BIN"), "VGC_BIN")
local out = assert(os.getenv("VGC_NVIM_OUT"), "VGC_NVIM_OUT")
local timeout = tonumber(os.getenv("VGC_NVIM_TIMEOUT_MS") or "120000")

local function finish(result)
  vim.fn.writefile({ vim.fn.json_encode(result) }, out)
  vim.cmd("qa!")
end

local function session()
  local buf = vim.api.nvim_get_current_buf()
  local file = vim.api.nvim_buf_get_name(buf)
  local gomod = vim.fn.findfile("go.mod", vim.fn.fnamemodify(file, ":h") .. ";")
  local root = vim.fn.fnamemodify(gomod, ":p:h")
  local config = { name = "vgc", cmd = { vgc, "lsp", "--debounce-ms", "20" }, root_dir = root }
  local id
  if vim.lsp.start then
    id = vim.lsp.start(config)
  else
    id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, id)
  end
  assert(id, "the client did not start")
  assert(vim.wait(timeout, function()
    local c = vim.lsp.get_client_by_id(id)
    return c ~= nil and c.initialized
  end, 20), "the server did not initialize")

  -- Type the misspelt tag on a new line above the first `+k8s:maxItems=16` (the module cache's file is
  -- read-only on disk; the buffer is only edited, never written).
  vim.bo[buf].readonly = false
  local lnum = vim.fn.search("+k8s:maxItems=16", "w")
  assert(lnum > 0, "no +k8s:maxItems=16 line")
  vim.cmd("normal! O// +k8s:maxItem=16")

  local found
  assert(vim.wait(timeout, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
      if code == "VGC0102" then
        found = d
        return true
      end
    end
    return false
  end, 20), "no VGC0102 diagnostic arrived")
  finish({
    ok = true,
    version = vim.version(),
    typed_line = lnum, -- 1-based: the new line took the old one's number
    lnum = found.lnum, -- 0-based
    col = found.col, -- 0-based, bytes
    message = found.message,
    source = found.source,
    severity = found.severity,
  })
end

-- After startup, when FILE is loaded in the current buffer.
vim.api.nvim_create_autocmd("VimEnter", {
  callback = function()
    local ok, err = pcall(session)
    if not ok then
      finish({ ok = false, error = tostring(err) })
    end
  end,
})
