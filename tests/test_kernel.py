"""The Jupyter kernel (th/kernel.py), end to end through jupyter_client: a
real kernel process started as Jupyter starts it, cells run, replies and
published output checked."""
import os
import time

import pytest

TIMEOUT = 60


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """A kernel started from the spec `th --install-kernel --prefix` installs."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from th.kernel import install

    prefix = tmp_path_factory.mktemp("prefix")
    spec_dir = install(prefix=str(prefix))
    assert spec_dir == str(prefix / "share" / "jupyter" / "kernels" / "th")
    specs = KernelSpecManager(kernel_dirs=[os.path.dirname(spec_dir)])
    km = KernelManager(kernel_name="th", kernel_spec_manager=specs)
    km.start_kernel(cwd=str(tmp_path_factory.mktemp("kernel")))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=TIMEOUT)
    kc.manager = km
    yield kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def run(kc, code, timeout=TIMEOUT):
    """Runs a cell -> (reply content, [(msg_type, content)] published for it).
    stop_on_error=False: the kernel would otherwise abort requests that reach
    it shortly after an error (a race on a loaded machine: 'aborted', no output)."""
    msg_id = kc.execute(code, stop_on_error=False)
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    published = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
        if msg["msg_type"] not in ("status", "execute_input"):
            published.append((msg["msg_type"], msg["content"]))
    return reply["content"], published


def stdout(published):
    return "".join(c["text"] for t, c in published if t == "stream" and c["name"] == "stdout")


def test_state_kept_and_output_streamed(kernel):
    reply, _ = run(kernel, "local a = 20\nb = 2")
    assert reply["status"] == "ok"
    reply, published = run(kernel, "print(a + b)\nio.write('x', 1, '\\n')\nio.stdout:write('y\\n')")
    assert reply["status"] == "ok"
    assert stdout(published) == "22\t\nx1\ny\n"


def test_last_expression_shown_as_the_repl_prints_it(kernel):
    _, published = run(kernel, "x = torch.range(1, 4):resize(2, 2)\nx")
    results = [c for t, c in published if t == "execute_result"]
    assert len(results) == 1
    data = results[0]["data"]
    assert data["text/plain"] == " 1  2\n 3  4\n[torch.DoubleTensor of size 2x2]"
    assert data["text/html"].startswith("<table><tr><td>1</td><td>2</td></tr>")
    _, published = run(kernel, "{a = 1}")
    assert [c["data"]["text/plain"] for t, c in published if t == "execute_result"] == \
        ["{\n  a : 1\n}"]
    _, published = run(kernel, "y = 3;")              # a statement shows nothing
    assert published == []


def test_lua_errors_are_errors(kernel):
    reply, published = run(kernel, "error('bad \\255 byte')")
    assert reply["status"] == "error" and reply["ename"] == "LuaError"
    assert reply["evalue"] == "stdin:1: bad \ufffd byte"
    errors = [c for t, c in published if t == "error"]
    assert errors and "Traceback" not in "".join(errors[0]["traceback"])
    reply, _ = run(kernel, "for i = 1, 2 do")
    assert reply["status"] == "error" and "'end' expected" in reply["evalue"]
    reply, published = run(kernel, "print(b)")      # the session goes on
    assert stdout(published) == "2\t\n"


def test_interrupt_stops_a_running_cell(kernel):
    run(kernel, "b = 2")
    msg_id = kernel.execute("a = torch.rand(300, 300) while true do local c = torch.mm(a, a) end",
                            stop_on_error=False)
    time.sleep(1.5)
    kernel.manager.interrupt_kernel()
    reply = kernel.get_shell_msg(timeout=TIMEOUT)
    assert reply["parent_header"]["msg_id"] == msg_id
    assert reply["content"]["status"] == "error" and "interrupted" in reply["content"]["evalue"]
    reply, published = run(kernel, "print(b)")
    assert reply["status"] == "ok" and stdout(published) == "2\t\n"


def test_completion_and_help(kernel):
    run(kernel, "t = torch.Tensor(2)")
    kernel.complete("t:na", 4)
    reply = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert "narrow" in reply["matches"] and reply["cursor_start"] == 2
    kernel.inspect("paths.concat(", 9)                # the cursor inside the name
    reply = kernel.get_shell_msg(timeout=TIMEOUT)["content"]
    assert reply["found"] and "paths.concat: function" in reply["data"]["text/plain"]
    _, published = run(kernel, "? paths.concat")
    assert "paths.concat: function" in stdout(published)


def test_image_display(kernel):
    import base64
    import io

    from PIL import Image

    reply, published = run(kernel, "require 'itorch'\nitorch.image(torch.Tensor(3, 4, 5):fill(1))")
    assert reply["status"] == "ok"
    images = [c["data"]["image/png"] for t, c in published if t == "display_data"]
    assert len(images) == 1
    picture = Image.open(io.BytesIO(base64.b64decode(images[0])))
    assert picture.size == (5, 4) and picture.getpixel((0, 0)) == (255, 255, 255)
    reply, _ = run(kernel, "itorch.image(torch.Tensor(2, 4, 5))")
    assert reply["status"] == "error"
    assert reply["evalue"] == "stdin:1: itorch.image: expects 1 or 3 channels, got 2"


def test_install_kernel_command(tmp_path):
    import json
    import subprocess

    from conftest import th_command
    r = subprocess.run(th_command() + ["--install-kernel", "--prefix", str(tmp_path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "share" / "jupyter" / "kernels" / "th" / "kernel.json") as f:
        spec = json.load(f)
    assert spec["argv"][1:] == ["-m", "th.kernel", "-f", "{connection_file}"]
    assert spec["language"] == "lua" and spec["interrupt_mode"] == "signal"
