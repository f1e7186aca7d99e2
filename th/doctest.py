"""`th --doctest FILE...`: run the examples of markdown documentation.

Torch's documentation shows examples as REPL transcripts inside fenced code
blocks (`> x = torch.Tensor(5):zero()`, `>>` continuation lines, then what was
printed) and as plain code blocks, sometimes followed by a block showing their
output.  Every example of a file runs in order in one session, as the REPL
would run it (a bare expression prints its value), and what it prints is
compared with what the document shows (in a transcript, a line that is a
statement, such as `> x:add(y)`, prints nothing, as the transcripts show; the
examples run in a temporary directory):

* by default ignoring whitespace (the documents were re-indented over time)
  and reading the stale footer `[... of dimension 2x3]` as `of size`;
* `--exact`: line by line, ignoring only trailing whitespace;
* `--any-numbers`: any number matches any number (examples with random values).

A plain block that is not Lua (a shell line, prose) is skipped; one right after
an example that showed no output is taken as that example's output.  Each
example is reported PASS or FAIL (with a diff), then `N passed, M failed`;
the exit status is 1 if any failed.
"""
import difflib
import os
import re
import shutil
import sys
import tempfile

_FENCE = re.compile(r"^\s*```+(.*)$")
_CLOSING = re.compile(r"^\s*```+\s*$")
_LANGUAGES = {"lua", "sh", "bash", "shell", "console", "text", "txt", "c", "python", "md"}
_PROMPT = re.compile(r"^\s*(?:th)?>(?!>)\s?(.*)$")
_CONTINUATION = re.compile(r"^\s*(?:>>|\.\.>)\s?(.*)$")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")
_STALE_FOOTER = re.compile(r"(\[torch\.\w+ )of dimension ")


class Example:
    def __init__(self, line, inputs, expected=None, transcript=False):
        self.line = line            # line of the document where it starts
        self.transcript = transcript  # `> input` lines: statements print nothing
        self.inputs = inputs        # lines to type, in order
        self.expected = expected    # the output the document shows, or None


def blocks(text):
    """-> [(first line number, language, lines)] of the fenced code blocks.  An
    opening fence may carry the first line of code (scraped documents do)."""
    out, current = [], None
    for number, line in enumerate(text.split("\n"), 1):
        fence = _FENCE.match(line)
        if current is None and fence:
            rest = fence.group(1)
            if rest.strip().lower() in _LANGUAGES or not rest.strip():
                current = (number + 1, rest.strip().lower(), [])
            else:
                current = (number, "", [rest])
        elif current is not None and _CLOSING.match(line):
            out.append(current)
            current = None
        elif current is not None:
            current[2].append(line)
    return out


def transcript(start, lines):
    """A block of `> input` lines and their output -> Example, or None if it is not one."""
    first = next((l for l in lines if l.strip()), "")
    if not _PROMPT.match(first):
        return None
    inputs, expected = [], []
    for line in lines:
        cont = _CONTINUATION.match(line)
        prompt = _PROMPT.match(line)
        if cont:
            inputs.append(cont.group(1))
        elif prompt:
            inputs.append(prompt.group(1))
        else:
            expected.append(line)
    return Example(start, inputs, "\n".join(expected), transcript=True)


def is_lua(engine, lines):
    """Whether the lines, typed one by one at the prompt, are all complete Lua chunks."""
    chunk = []
    for line in lines:
        if not chunk and not line.strip():
            continue
        chunk.append(line)
        status = engine.check("\n".join(chunk))
        if status == "error":
            return False
        if status == "ok":
            chunk = []
    return not chunk


def examples(text, engine):
    """The examples of a document, in order."""
    found = []
    for start, language, lines in blocks(text):
        example = transcript(start, lines)
        if example is not None:
            found.append(example)
            continue
        if not any(l.strip() for l in lines):
            continue
        if is_lua(engine, lines):
            found.append(Example(start, lines))
        elif found and found[-1].expected is None and not re.match(r"^\s*[#$]", lines[0]):
            found[-1].expected = "\n".join(lines)
    return found


class Capture:
    """Collects what is written to file descriptor 1 (Lua's and Python's stdout)."""

    def __enter__(self):
        sys.stdout.flush()
        self.file = tempfile.TemporaryFile()
        self.saved = os.dup(1)
        os.dup2(self.file.fileno(), 1)
        return self

    def __exit__(self, *exc):
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)
        self.file.seek(0)
        self.text = self.file.read().decode("utf-8", "replace")
        self.file.close()


def run_example(engine, example):
    """Types the example's lines into the session -> what it printed (errors included)."""
    errors = []
    engine.statements_first = example.transcript
    with Capture() as capture:
        chunk = []
        for line in example.inputs:
            if not chunk and not line.strip():
                continue
            chunk.append(line)
            status, message = engine.eval("\n".join(chunk))
            engine.lua("io.stdout:flush()")
            if status != "incomplete":
                chunk = []
            if status == "error":
                errors.append(message)
                os.write(1, (message + "\n").encode())
        if chunk:
            errors.append("incomplete input at the end of the example")
    return capture.text, errors


def normalise(text, exact, any_numbers):
    text = _STALE_FOOTER.sub(r"\1of size ", text)
    if any_numbers:
        text = _NUMBER.sub("<number>", text)
    if exact:
        lines = [l.rstrip() for l in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        return lines
    return text.split()


def check(example, actual, errors, exact, any_numbers):
    """-> None if the example passed, else the explanation (a diff)."""
    if example.expected is None:
        return "\n".join(errors) or None
    want = normalise(example.expected, exact, any_numbers)
    got = normalise(actual, exact, any_numbers)
    if want == got:
        return None
    if not exact:
        want, got = example.expected.strip().split("\n"), actual.rstrip().split("\n")
    return "\n".join(difflib.unified_diff(want, got, "expected", "actual", lineterm=""))


def run_file(path, exact=False, any_numbers=False, out=None):
    """Runs the examples of one document in a fresh session -> (passed, failed)."""
    from th.cli import session
    from th.repl_engine import Engine

    out = out or sys.stdout
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    engine = Engine(session())
    passed = failed = 0
    here = os.getcwd()
    workdir = tempfile.mkdtemp(prefix="th-doctest-")
    os.chdir(workdir)   # what the examples write stays out of the way
    try:
        results = [(example,) + run_example(engine, example) for example in examples(text, engine)]
    finally:
        os.chdir(here)
        shutil.rmtree(workdir, ignore_errors=True)
    for example, actual, errors in results:
        problem = check(example, actual, errors, exact, any_numbers)
        where = f"{path}:{example.line}"
        if problem is None:
            passed += 1
            out.write(f"PASS {where}\n")
        else:
            failed += 1
            out.write(f"FAIL {where}\n")
            out.write("".join("  " + l + "\n" for l in problem.split("\n")))
        out.flush()
    return passed, failed


def main(args):
    """th --doctest [--exact] [--any-numbers] FILE... -> exit status."""
    options = {"exact": False, "any_numbers": False}
    files = []
    for a in args:
        if a == "--exact":
            options["exact"] = True
        elif a == "--any-numbers":
            options["any_numbers"] = True
        elif a.startswith("--"):
            sys.stderr.write(f"th --doctest: unknown option {a}\n")
            return 1
        else:
            files.append(a)
    if not files:
        sys.stderr.write("th --doctest: no file given\n")
        return 1
    passed = failed = 0
    for path in files:
        if not os.path.isfile(path):
            sys.stderr.write(f"th --doctest: cannot open {path}\n")
            failed += 1
            continue
        p, f = run_file(path, **options)
        passed, failed = passed + p, failed + f
    sys.stdout.write(f"{passed} passed, {failed} failed\n")
    return 1 if failed else 0
