"""th in Jupyter: a kernel (on ipykernel) over one `th` session.

    python -m th.kernel -f CONNECTION_FILE     (what Jupyter runs)
    th --install-kernel [--sys-prefix | --prefix DIR]   (installs the kernel spec)

A cell runs as the REPL runs a line (th/repl_engine.py): locals and globals
stay from cell to cell, and the value of a last expression is shown as the
REPL prints it; a small 2-D tensor also as an HTML table.  `print` and
`io.write` output is streamed to the cell, a Lua error is shown as an error
(never a Python traceback), the interrupt button stops a running cell, Tab
completes and `? name` (or Shift-Tab) gives the REPL's help.  The Lua module
`itorch` (a global, as in iTorch) shows images: `itorch.image(t)` displays an image tensor (HxW, CxHxW
or a batch NxCxHxW) as a PNG, as iTorch did; `itorch.html(s)` displays HTML.
"""
import base64
import html
import io
import os
import subprocess
import sys
import time

from ipykernel.kernelbase import Kernel

import th
from th import luabytes

# a 2-D tensor with at most this many elements is also shown as an HTML table
HTML_TABLE_MAX = 400
# streamed output is sent at most this often (seconds), and at the end of a cell
FLUSH_EVERY = 0.2

# Lua's output goes to the kernel: io.write, io.stdout/io.stderr:write (print
# is trepl's, on io.write), and the `itorch` module
_REDIRECT = r"""
local bytes = require 'trepl.bytes'
return function(stream, image, rawhtml)
   local function writer(name)
      return function(...)
         for i = 1, select('#', ...) do
            local v = select(i, ...)
            stream(name, bytes(type(v) == 'number' and tostring(v) or v))
         end
      end
   end
   local function file(name, real)
      local write = writer(name)
      local proxy = {}
      function proxy:write(...) write(...) return self end
      function proxy:flush() return self end
      function proxy:close() return true end
      function proxy:setvbuf() return true end
      function proxy:lines(...) return real:lines(...) end
      function proxy:read(...) return real:read(...) end
      function proxy:seek(...) return real:seek(...) end
      return setmetatable(proxy, {__tostring = function() return tostring(real) end})
   end
   io.write = writer('stdout')
   io.stdout = file('stdout', io.stdout)
   io.stderr = file('stderr', io.stderr)
   itorch = {
      image = function(t)
         assert(torch.isTensor(t), 'itorch.image: expects an image tensor')
         local err = image(t)
         if err then error(err, 2) end
      end,
      html = function(s) rawhtml(bytes(s)) end,
   }
   package.loaded.itorch = itorch
   require('trepl.repl').hide('itorch')
end
"""


def tensor_html(array):
    """A 2-D array as an HTML table."""
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(_number(v))}</td>" for v in row) + "</tr>"
                   for row in array)
    return f"<table>{rows}</table>"


def _number(v):
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def image_png(array):
    """PNG bytes of an image tensor's array: HxW, CxHxW (C = 1 or 3), or a batch
    NxCxHxW laid side by side.  Floats in [0, 1] scale to 0..255, other ranges
    are stretched (as image.toDisplayTensor did); bytes are taken as they are."""
    import numpy as np
    from PIL import Image

    a = np.asarray(array)
    if a.ndim == 4:
        pad = np.zeros(a.shape[:3] + (2,), a.dtype)
        a = np.concatenate([np.concatenate([img, p], axis=2) for img, p in zip(a, pad)], axis=2)
    if a.ndim == 3:
        if a.shape[0] not in (1, 3):
            raise ValueError(f"itorch.image: expects 1 or 3 channels, got {a.shape[0]}")
        a = a[0] if a.shape[0] == 1 else np.transpose(a, (1, 2, 0))
    elif a.ndim != 2:
        raise ValueError("itorch.image: expects a 2-D, 3-D or 4-D tensor")
    if a.dtype != np.uint8:
        a = a.astype(np.float64)
        low, high = (np.nanmin(a), np.nanmax(a)) if a.size else (0.0, 1.0)
        if low < 0 or high > 1:
            a = (a - low) / ((high - low) or 1)
        a = np.clip(np.nan_to_num(a) * 255 + 0.5, 0, 255).astype(np.uint8)
    out = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(a)).save(out, format="PNG")
    return out.getvalue()


class THKernel(Kernel):
    implementation = "th"
    implementation_version = th.__version__
    language_info = {"name": "lua", "version": "5.1", "mimetype": "text/x-lua",
                     "file_extension": ".lua", "pygments_lexer": "lua", "codemirror_mode": "lua"}
    banner = "th: Torch7 for Lua (LuaJIT through lupa, tensors on numpy)"
    help_links = [{"text": "Torch7", "url": "https://github.com/torch/torch7"}]

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        from th.cli import session
        from th.repl_engine import Engine

        self.runtime = session()
        self.engine = Engine(self.runtime)
        self._pending = {"stdout": [], "stderr": []}
        self._flushed = time.monotonic()
        self._result = None
        self._display = self.engine._repl
        self.runtime.lua.execute(_REDIRECT)(self._stream, self._image, self._html)

    # ---- output ----
    def _stream(self, name, address, size):
        self._pending[name].append(luabytes.read(address, size))
        if time.monotonic() - self._flushed > FLUSH_EVERY:
            self._flush()

    def _flush(self):
        self._flushed = time.monotonic()
        for name, parts in self._pending.items():
            if parts:
                text = b"".join(parts).decode("utf-8", "replace")
                parts.clear()
                self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    def _send_display(self, data):
        self._flush()
        self.send_response(self.iopub_socket, "display_data", {"data": data, "metadata": {}})

    def _image(self, tensor):
        """Displays an image tensor; -> an error message for Lua if it cannot."""
        try:
            png = image_png(self.runtime.to_numpy(tensor.contiguous(tensor)))
        except ImportError:
            return "itorch.image: needs Pillow (the jupyter extra of th)"
        except ValueError as exc:
            return str(exc)
        self._send_display({"image/png": base64.b64encode(png).decode("ascii"),
                            "text/plain": "<image>"})

    def _html(self, address, size):
        self._send_display({"text/html": luabytes.text(address, size)})

    def _show(self, address, size, tensor=None):
        """The value of the cell's last expression: kept for execute_result."""
        data = {"text/plain": luabytes.text(address, size).rstrip("\n")}
        if tensor is not None and tensor.nDimension(tensor) == 2 \
                and 0 < tensor.nElement(tensor) <= HTML_TABLE_MAX:
            data["text/html"] = tensor_html(self.runtime.to_numpy(tensor.contiguous(tensor)))
        self._result = data

    # ---- requests ----
    def do_execute(self, code, silent, store_history=True, user_expressions=None,
                   allow_stdin=False, **kwargs):
        self._result = None
        stripped = code.strip()
        if stripped.startswith("?") or stripped.startswith("$"):
            self._special(stripped)
            return self._ok()
        self._display.display = self._show
        try:
            status, message = self.engine.eval(code, cell=True)
        except KeyboardInterrupt:       # (an interruption around the cell's own code)
            status, message = "error", b"interrupted"
        finally:
            self._display.display = None
        if status == "incomplete":
            status, message = self.engine.check(code)
            status = "error"
        self._flush()
        if status == "error":
            return self._error(message.decode("utf-8", "replace"), silent)
        if self._result is not None and not silent:
            self.send_response(self.iopub_socket, "execute_result",
                               {"execution_count": self.execution_count,
                                "data": self._result, "metadata": {}})
        return self._ok()

    def _special(self, line):
        if line == "?":
            from th.repl import HELP
            text = HELP
        elif line.startswith("?"):
            text = self.engine.help(line[1:]) + "\n"
        else:
            r = subprocess.run(line[1:], shell=True, capture_output=True)
            text = (r.stdout + r.stderr).decode("utf-8", "replace")
        self.send_response(self.iopub_socket, "stream", {"name": "stdout", "text": text})

    def _ok(self):
        return {"status": "ok", "execution_count": self.execution_count,
                "payload": [], "user_expressions": {}}

    def _error(self, message, silent):
        content = {"ename": "LuaError", "evalue": message, "traceback": [message]}
        if not silent:
            self.send_response(self.iopub_socket, "error", content)
        return dict(content, status="error", execution_count=self.execution_count)

    def do_complete(self, code, cursor_pos):
        from th.repl import _OPEN_STRING, path_completions

        before = code[:cursor_pos]
        line = before.rsplit("\n", 1)[-1]
        inside = _OPEN_STRING.match(line)
        if inside:
            fragment = inside.group(1)
            start, matches = -len(os.path.basename(fragment)), path_completions(fragment)
        else:
            start, matches = self.engine.complete(before)
        return {"matches": matches, "cursor_start": cursor_pos + start, "cursor_end": cursor_pos,
                "metadata": {}, "status": "ok"}

    def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        from th.repl_engine import _TRAILING_NAME

        before = code[:cursor_pos]
        after = code[cursor_pos:]
        word_end = len(after) - len(after.lstrip("abcdefghijklmnopqrstuvwxyz"
                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"))
        match = _TRAILING_NAME.search(before + after[:word_end])
        name = match.group(0).strip() if match else ""
        if not name:
            return {"status": "ok", "data": {}, "metadata": {}, "found": False}
        text = self.engine.help(name)
        return {"status": "ok", "data": {"text/plain": text}, "metadata": {},
                "found": not text.endswith("unknown (nil)")}

    def do_is_complete(self, code):
        status, _ = self.engine.check(code)
        if status == "ok":
            return {"status": "complete"}
        if status == "incomplete":
            return {"status": "incomplete", "indent": ""}
        return {"status": "invalid"}


KERNEL_SPEC = {"display_name": "th (Torch7)", "language": "lua", "interrupt_mode": "signal"}


def install(user=True, prefix=None):
    """Installs the kernel spec `th` -> the directory it went to."""
    import json
    import tempfile

    from jupyter_client.kernelspec import KernelSpecManager

    spec = dict(KERNEL_SPEC, argv=[sys.executable, "-m", "th.kernel", "-f", "{connection_file}"])
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "kernel.json"), "w") as f:
            json.dump(spec, f, indent=1)
        return KernelSpecManager().install_kernel_spec(tmp, "th", user=user and prefix is None,
                                                       prefix=prefix)


def main():
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance(kernel_class=THKernel)


if __name__ == "__main__":
    main()
