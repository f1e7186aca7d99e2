"""`th --doctest FILE...`: run the examples of markdown documentation.

Torch's documentation shows examples as REPL transcripts inside fenced code
blocks (`> x = torch.Tensor(5):zero()`, `>>` continuation lines, then what was
printed) and as plain code blocks, sometimes followed by a block showing their
output.  Every example of a file runs in order in one session, as trepl
would run it, and what it prints is compared with what the document shows.
A line's results are printed when the document shows output after it (trepl
printed any expression's, `> a:dist(b)` shows 0), and not when the next thing
shown is another prompt; a plain block runs as a script.  Each example starts
with the default tensor type (torch.DoubleTensor), in a temporary directory.

Scraped documents are read as a careful reader would: prompts the scraper lost
(a Lua statement is input, a lone value is output), markdown escapes in code,
comments in the output, prose and a comment's wrapped end inside a block, and
an example split over two blocks.  The comparison is:

* by default, of the token streams (so re-indented, joined or split lines
  match), reading the stale footer `[... of dimension 2x3]` as `of size`;
  an `...` in the shown output stands for any output;
* `--exact`: line by line, ignoring only trailing whitespace;
* `--any-numbers`: any number matches any number.  An example drawing random
  numbers without seeding the generator gets it automatically, and its report
  line says `(random, any numbers)`: one whose code calls a random function,
  or whose run moved the generator (nn's modules draw their initial weights).

`-l name` (as `th -l name`) loads a library before each document's
examples, for documentation that assumes it: `th --doctest -l nn
nn/doc/*.md` (nn on LUA_PATH).  A library that fails to load fails the run.
`--seed N` seeds the generator at the start of each document, for runs that
repeat (unseeded examples print numbers in a layout that depends on them).

A block that is not Lua (a shell line, prose) is skipped, or taken as the
output of the example before it when that one showed none.  Each example is
reported PASS or FAIL (with a diff), then `N passed, M failed`; the exit
status is 1 if any failed.
"""
import difflib
import os
import re
import shutil
import sys
import tempfile

from th import luabytes

_FENCE = re.compile(r"^\s*```+(.*)$")
_CLOSING = re.compile(r"^\s*```+\s*$")
_LANGUAGES = {"lua", "sh", "bash", "shell", "console", "text", "txt", "c", "python", "md"}
_PROMPT = re.compile(r"^\s*(?:th)?>(?!>)\s?(.*)$")
_CONTINUATION = re.compile(r"^\s*(?:>>|\.\.>)\s?(.*)$")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?\b(?:nan|inf)\b")
_TOKEN = re.compile(r"\.\.\.|" + _NUMBER.pattern + r"|\w+|\S")
_ELLIPSIS = "..."   # in the shown output: any output (a long tensor cut short)
_STALE_FOOTER = re.compile(r"(\[torch\.\w+ )of dimension ")
_COMMENT = re.compile(r"^\s*--")
_ESCAPE = re.compile(r"\\([{}_*\[\]#])")
_TRAILING_COMMENT = re.compile(r"(?:^|[ \t])--(?:[ \t].*)?$", re.M)
_RANDOM = re.compile(r"\b(?:rand|randn|randperm|random|uniform|normal|bernoulli|exponential|cauchy"
                     r"|logNormal|geometric|multinomial)\s*\(")
_MAXDIFF = 80
_WORDS = re.compile(r"^\s*(?!(?:true|false|nil|nan|inf)\b)[a-z]{2,}\b(?!:)")
# four words in a row, not in a [footer]: no tensor output looks like that
_PROSE = re.compile(r"^(?!\s*\[).*\b[A-Za-z]+(?: [A-Za-z]+){3}\b")
_SEEDING = re.compile(r"\b(?:manualSeed|setRNGState)\s*\(")


class Example:
    def __init__(self, line, entries, shown, expected=None, lines=None):
        self.line = line            # line of the document where it starts
        self.entries = entries      # what is typed at each prompt: [lines]
        self.shown = shown          # per entry: whether output is shown right after it
        self.expected = expected    # the output the document shows, or None
        self.lines = lines          # its block's lines (to extend it with the next block)

    @property
    def seeds(self):
        """Whether it seeds the generator itself."""
        return bool(_SEEDING.search(self.code))

    @property
    def code(self):
        return "\n".join(line for entry in self.entries for line in entry)

    @property
    def random(self):
        """Whether its code draws random numbers without seeding the generator itself."""
        return bool(_RANDOM.search(self.code)) and not self.seeds


def blocks(text):
    """-> [(first line number, language, lines, whether only blank lines
    separate it from the block before)] of the fenced code blocks.  An opening
    fence may carry the first line of code (scraped documents do)."""
    out, current, gap = [], None, False
    for number, line in enumerate(text.split("\n"), 1):
        fence = _FENCE.match(line)
        if current is None and fence:
            rest = fence.group(1)
            if rest.strip().lower() in _LANGUAGES or not rest.strip():
                current = (number + 1, rest.strip().lower(), [], not gap)
            else:
                current = (number, "", [rest], not gap)
        elif current is not None and _CLOSING.match(line):
            out.append(current)
            current, gap = None, False
        elif current is None:
            gap = gap or bool(line.strip())
        elif current is not None:
            current[2].append(line)
    return out


def unescape(line):
    """A line of code as typed: without the markdown escapes (`\\{`, `\\_`) nor
    the line-break backslash that scraping added."""
    return _ESCAPE.sub(r"\1", line).rstrip("\\")


# syntax(text) -> 'ok' | 'incomplete' | 'error': text read as Lua statements,
# or as `= expression`, the REPL's way of printing a value (the leading space
# stops LuaJIT from skipping a first line starting with #)
_SYNTAX = """
return function(text)
   local expression = text:match('^%s*=(.*)$')
   local f, err = loadstring(expression and 'return ' .. expression or ' ' .. text)
   if f then return 'ok' end
   -- a lone expression (`x`, `torch.DoubleTensor`) is no statement to finish
   local unfinished = err:sub(-7) == "'<eof>'" and not err:find("'=' expected near", 1, true)
   return unfinished and 'incomplete' or 'error'
end
"""


def parse(start, lines, syntax):
    """A code block -> Example, or None if it starts with neither a prompt nor Lua.
    Lines typed at a prompt (`> `, `>> `) are input, and so are lines of Lua
    statements: plain blocks have no prompts, and scraping lost some.  A line
    continues an unfinished input when it can; a statement starts a new one.
    The rest is output (a lone expression such as `3.1400` or
    `torch.DoubleTensor` too), except comments, which go with the code, and
    prose."""
    entries, shown, expected, status, commented = [], [], [], "ok", False
    for line in lines:
        prompt, cont = _PROMPT.match(line), _CONTINUATION.match(line)
        code = unescape(line)
        # words after a comment: its end, wrapped by the scraper
        wrapped = commented and bool(_WORDS.match(line))
        commented = bool(_TRAILING_COMMENT.search(line)) if line.strip() else commented
        if cont and entries:
            entries[-1].append(unescape(cont.group(1)))
        elif prompt:
            entries.append([unescape(prompt.group(1))])
            shown.append(False)
        elif status == "incomplete" and syntax("\n".join(entries[-1] + [code])) != "error":
            entries[-1].append(code)
        elif not line.strip() or entries and _COMMENT.match(line):
            if entries and not _COMMENT.match(line):
                expected.append(line)
            continue
        elif syntax(code) != "error":
            entries.append([code])
            shown.append(False)
        elif wrapped or _PROSE.search(_TRAILING_COMMENT.sub("", line)):
            continue    # a comment's end wrapped onto a line, or prose put in the block
        elif entries:
            expected.append(line)
            shown[-1] = True
            continue
        else:
            return None
        status = syntax("\n".join(entries[-1]))
    if not any(l.strip() and not _COMMENT.match(l) for entry in entries for l in entry):
        return None
    return Example(start, entries, shown, "\n".join(expected) if any(shown) else None, lines)


def examples(text, engine):
    """The examples of a document, in order.  A block that is not Lua is the
    rest of the example just before it when nothing separates them (the scraper
    split it in two), or the output of an example that showed none; else, or
    if it is prose or a shell line, it is skipped."""
    syntax = engine.runtime.lua.execute(_SYNTAX)
    found, joined = [], False    # joined: the block before belongs to the last example
    for start, language, lines, adjacent in blocks(text):
        first = next((l for l in lines if l.strip()), None)
        example = parse(start, lines, syntax) if first is not None else None
        last = found[-1] if found else None
        if joined and adjacent and last.lines and syntax("\n".join(last.entries[-1])) == "incomplete":
            found[-1] = parse(last.line, last.lines + lines, syntax)   # code split in two
        elif example is not None:
            found.append(example)
        elif last is None or first is None or re.match(r"^\s*[#$]", first) or _PROSE.search(first):
            joined = False
            continue
        elif joined and adjacent and (last.expected is not None or any(_PROMPT.match(l) for l in lines)):
            found[-1] = parse(last.line, last.lines + lines, syntax)
        elif last.expected is None:
            last.expected = "\n".join(lines)
            last.shown[-1] = True
        else:
            joined = False
            continue
        joined = True
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


# -> a function telling whether the generator moved since it was made
_DRAWS = "function() local s = torch.getRNGState() return function() return not torch.getRNGState():equal(s) end end"


def run_example(engine, example):
    """Types the example's entries into the session -> (what it printed (errors
    included), the errors, whether it drew random numbers)."""
    errors = []
    moved = engine.runtime.lua.eval(_DRAWS)()
    with Capture() as capture:
        for entry, shown in zip(example.entries, example.shown):
            # trepl prints the results of a call too: a transcript shows them, or
            # nothing when the next thing it shows is a prompt; a plain block is
            # a script whose calls print nothing
            engine.statements_first = not shown
            chunk = []
            for line in entry:
                if not chunk and not line.strip():
                    continue
                chunk.append(line)
                status, message = engine.eval("\n".join(chunk))
                engine.lua("io.stdout:flush()")
                if status != "incomplete":
                    chunk = []
                if status == "error":
                    errors.append(message.decode("utf-8", "replace"))
                    os.write(1, message + b"\n")
            if chunk:
                errors.append("incomplete input: " + " ".join(chunk))
                os.write(1, (errors[-1] + "\n").encode())
        # the documents assume the default type everywhere; an example showing
        # how to change it does not change it for the next ones
        engine.lua("torch.setdefaulttensortype('torch.DoubleTensor')")
    return capture.text, errors, bool(moved())


def normalise(text, exact, any_numbers):
    """-> the lines (exact) or the tokens of text, numbers masked with any_numbers."""
    text = _STALE_FOOTER.sub(r"\1of size ", text)
    if exact:
        if any_numbers:
            text = _NUMBER.sub("<number>", text)
        lines = [l.rstrip() for l in text.split("\n")]
        while lines and not lines[-1]:
            lines.pop()
        return lines
    # tokens: lines the scraper joined or split, or re-spaced, still match
    tokens = _TOKEN.findall(text)
    if any_numbers:
        tokens = ["<number>" if _NUMBER.fullmatch(t) else t for t in tokens]
    return tokens


def matches(want, got):
    """Whether the lists of tokens (or lines) are equal, an `...` in want
    standing for any number of them."""
    parts, part = [], []
    for item in want:
        if item.strip() == _ELLIPSIS:
            parts.append(part)
            part = []
        else:
            part.append(item)
    parts.append(part)
    if len(parts) == 1:
        return want == got
    first, middle, last = parts[0], parts[1:-1], parts[-1]
    start, end = len(first), len(got) - len(last)
    if got[:start] != first or got[end:] != last or end < start:
        return False
    for part in middle:
        found = next((i for i in range(start, end - len(part) + 1) if got[i:i + len(part)] == part), None)
        if found is None:
            return False
        start = found + len(part)
    return True


def check(example, actual, errors, exact, any_numbers):
    """-> None if the example passed, else the explanation (a diff)."""
    if example.expected is None:
        return "\n".join(errors) or None
    expected = _TRAILING_COMMENT.sub("", example.expected)   # comments are not output
    want = normalise(expected, exact, any_numbers)
    got = normalise(actual, exact, any_numbers)
    if matches(want, got):
        return None
    if not exact:
        want, got = example.expected.strip().split("\n"), actual.rstrip().split("\n")
    diff = list(difflib.unified_diff(want, got, "expected", "actual", lineterm=""))
    if len(diff) > _MAXDIFF:   # a runaway output
        diff[_MAXDIFF:] = [f"... {len(diff) - _MAXDIFF} more lines"]
    return "\n".join(diff)


class LibraryError(Exception):
    pass


def load_libraries(engine, libs):
    """require each library in the session (th -l's way), or LibraryError."""
    require = engine.runtime.lua.eval("function(name) return pcall(require, name) end")
    for lib in libs:
        result = engine.run(lambda: require(luabytes.encode(lib)))
        ok, message = result if isinstance(result, tuple) else (result, None)
        if not ok:
            message = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
            raise LibraryError(f"could not load {lib}: {message}")


def run_file(path, exact=False, any_numbers=False, out=None, libs=(), seed=None):
    """Runs the examples of one document in a fresh session (the libraries
    loaded first, the generator seeded with seed) -> (passed, failed)."""
    from th.cli import session
    from th.repl_engine import Engine

    out = out or sys.stdout
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    engine = Engine(session())
    load_libraries(engine, libs)
    if seed is not None:
        engine.runtime.lua.eval("torch.manualSeed")(seed)
    passed = failed = 0
    here = os.getcwd()
    workdir = tempfile.mkdtemp(prefix="th-doctest-")
    os.chdir(workdir)   # what the examples write stays out of the way
    try:
        results = [(example,) + run_example(engine, example) for example in examples(text, engine)]
    finally:
        os.chdir(here)
        shutil.rmtree(workdir, ignore_errors=True)
    for example, actual, errors, drew in results:
        loose = any_numbers or example.random or (drew and not example.seeds)
        problem = check(example, actual, errors, exact, loose)
        where = f"{path}:{example.line}"
        if loose and not any_numbers:
            where += " (random, any numbers)"
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
    """th --doctest [--exact] [--any-numbers] [-l name]... [--seed N] FILE... -> exit status."""
    options = {"exact": False, "any_numbers": False, "libs": [], "seed": None}
    files = []
    args = iter(args)
    for a in args:
        if a == "--exact":
            options["exact"] = True
        elif a == "--any-numbers":
            options["any_numbers"] = True
        elif a == "-l":
            name = next(args, None)
            if name is None:
                sys.stderr.write("th --doctest: option -l needs an argument\n")
                return 1
            options["libs"].append(name)
        elif a.startswith("-l") and len(a) > 2:
            options["libs"].append(a[2:])
        elif a == "--seed":
            seed = next(args, None)
            if seed is None or not seed.isdigit():
                sys.stderr.write("th --doctest: option --seed needs a number\n")
                return 1
            options["seed"] = int(seed)
        elif a.startswith("-"):
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
        try:
            p, f = run_file(path, **options)
        except LibraryError as exc:
            sys.stderr.write(f"th --doctest: {exc}\n")
            return 1
        passed, failed = passed + p, failed + f
    sys.stdout.write(f"{passed} passed, {failed} failed\n")
    return 1 if failed else 0
