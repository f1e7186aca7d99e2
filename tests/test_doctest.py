"""`th --doctest`: documentation examples run as the REPL would, compared with
what the document shows; and the seeds' examples themselves."""
import os
import re

import pytest

from conftest import SHARED, run_th
from helpers import doc_known_failures

DOC = '''# A document

Some prose.

```lua
> x = torch.Tensor(2, 3):fill(1)
> x:add(1)
> = x:sum(), x:dim()
12	2
> for i = 1, 2 do
>> io.write(i, ' ')
>> end
1 2
```

A plain block, then its output shown in a block of its own:

```
y = torch.range(1, 3)
print(y)
```

```
 1
 2
 3
[torch.DoubleTensor of dimension 3]
```

``````> print(paths.extname('a.lua'))
lua
``````

```
# th myscript.lua
```
'''


def doctest(tmp_path, text, *options):
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    return run_th(["--doctest", *options, str(doc)], cwd=str(tmp_path))


def test_examples_pass(tmp_path):
    r = doctest(tmp_path, DOC)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = tmp_path / "doc.md"
    assert r.stdout.split("\n") == [f"PASS {doc}:6", f"PASS {doc}:19", f"PASS {doc}:30", "3 passed, 0 failed", ""]


def test_a_wrong_output_fails_with_a_diff(tmp_path):
    r = doctest(tmp_path, "```\n> = 1 + 1\n3\n```\n\n```\n> error('bad')\n```\n")
    assert r.returncode == 1
    assert "FAIL" in r.stdout and "-3" in r.stdout and "+2" in r.stdout
    assert "bad" in r.stdout
    assert r.stdout.endswith("0 passed, 2 failed\n")


def test_exact_and_any_numbers(tmp_path):
    spaced = "```\n> = 1, 2\n1   2\n```\n"
    assert doctest(tmp_path, spaced).returncode == 0
    assert doctest(tmp_path, spaced, "--exact").returncode == 1
    random = "```\n> torch.manualSeed(1)\n> = torch.uniform()\n0.123\n```\n"
    assert doctest(tmp_path, random).returncode == 1
    assert doctest(tmp_path, random, "--any-numbers").returncode == 0


def test_bad_invocations(tmp_path):
    assert run_th(["--doctest"]).returncode == 1
    r = run_th(["--doctest", str(tmp_path / "missing.md")])
    assert r.returncode == 1 and "cannot open" in r.stderr


KNOWN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "doctest_known_failures.txt")


def known_failures():
    """{(seed file, line): reason} of the seeds' examples that cannot pass."""
    return doc_known_failures(KNOWN)


SEEDS = ["000_cd5e080740af5f57.txt", "001_5a1605ca4899e633.txt", "003_411dc7e9ac75c50b.txt"]


@pytest.mark.parametrize("seed", SEEDS)
def test_seed_examples(seed):
    path = os.path.join(SHARED, "seeds", seed)
    r = run_th(["--doctest", path], timeout=300)
    failed = {int(n) for n in re.findall(r"^FAIL \S+:(\d+)\b", r.stdout, re.M)}
    passed = {int(n) for n in re.findall(r"^PASS \S+:(\d+)\b", r.stdout, re.M)}
    listed = {n for (name, n) in known_failures() if name == seed}
    assert re.search(r"^\d+ passed, \d+ failed$", r.stdout, re.M)
    assert failed <= listed, r.stdout
    # the list stays exact: a listed example that passes now, or is gone, must come off it
    assert listed <= failed, f"passing or missing, take off the list: {sorted(listed - failed)}"
    assert passed, r.stdout


def test_scraped_examples_read_as_a_careful_reader(tmp_path):
    # joined output lines, lost prompts, a stale footer, a comment in the output
    joined = ("```\nx = torch.Tensor(2, 2):fill(2)\n> x:add(1)\n3 3\n3 3[torch.DoubleTensor of dimension 2x2]"
              " -- all threes\n```\n")
    # a call shows its results when the transcript shows output after it (trepl did)
    shown = "```\n> a = torch.ones(3)\n> a:dist(a)\n0\n> a:fill(2)\n> = a:sum()\n6\n```\n"
    # a transcript the scraper split in two blocks, and ... for a long output cut short
    split = ("```\n> x = torch.range(1, 3)\n> x\n1\n```\n\n```\n2\n3\n[torch.DoubleTensor of size 3]\n"
             "> torch.range(1, 100)\n1\n...\n100\n[torch.DoubleTensor of size 100]\n```\n")
    for doc in (joined, shown, split):
        r = doctest(tmp_path, doc)
        assert r.returncode == 0 and r.stdout.endswith("1 passed, 0 failed\n"), doc + r.stdout


def test_random_examples_compare_any_numbers(tmp_path):
    r = doctest(tmp_path, "```\n> = torch.uniform()\n0.123\n```\n")
    assert r.returncode == 0 and "(random, any numbers)" in r.stdout
    seeded = "```\n> torch.manualSeed(1)\n> = torch.uniform()\n0.123\n```\n"
    assert doctest(tmp_path, seeded).returncode == 1


def test_each_example_starts_with_the_default_type(tmp_path):
    doc = ("```\ntorch.setdefaulttensortype('torch.FloatTensor')\n```\n\n"
           "```\n> = torch.Tensor(1):zero()\n0\n[torch.DoubleTensor of size 1]\n```\n")
    assert doctest(tmp_path, doc).returncode == 0
