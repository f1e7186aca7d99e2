"""torch.multinomialAliasSetup / multinomialAlias against the original Torch7.

The tables and the use of the random stream (two uniforms per sample: a column,
then whether the column keeps its own category) are the original's
(tests/parity/multinomial_alias.*).  Two of the original's results were wrong
and th does better (README): a sample that falls to a column's alias was given
the alias minus one, and an alias at index 1 was taken for "no alias"."""
import numpy as np
import pytest

from helpers import lua_runner
from parity_cases import cases, check


@pytest.mark.parametrize("case", cases("multinomial_alias"))
def test_alias_tables_and_stream(case):
    check(case)


def test_draws_for_a_seed(runtime):
    lua = lua_runner(runtime)
    got = lua("""torch.manualSeed(5)
        local st = torch.multinomialAliasSetup(torch.Tensor{0.1, 0.2, 0.3, 0.4})
        return torch.multinomialAlias(torch.LongTensor(20), st):double()""")
    # the original's output for this seed, with J = {4, 4, 1, 3}, q = {0.4, 0.8, 1, 0.8}:
    torch7 = [1, 2, 1, 2, 2, 3, 4, 3, 3, 3, 3, 3, 2, 3, 4, 2, 2, 3, 3, 3]
    # where a sample fell to a column's alias (columns 4, 4, 2, 1, 1, 1, 4 here),
    # Torch7 gave alias - 1; th gives the alias
    fell_to_alias = [1, 3, 8, 9, 10, 13, 17]
    expected = [v + 1 if i in fell_to_alias else v for i, v in enumerate(torch7)]
    assert got.tolist() == expected


@pytest.mark.parametrize("probs", [[0.1, 0.2, 0.3, 0.4], [0.7, 0.1, 0.1, 0.1],
                                   [0.3, 0.1, 0.2, 0.15, 0.25], [0.05, 0.05, 0.6, 0.1, 0.2]])
def test_draws_follow_the_distribution(runtime, probs):
    lua = lua_runner(runtime)
    got = lua("""torch.manualSeed(1)
        local st = torch.multinomialAliasSetup(p)
        return torch.multinomialAlias(torch.LongTensor(40000), st):double()""", p=probs)
    freq = np.bincount(got.astype(int), minlength=len(probs) + 1)[1:] / got.size
    assert np.abs(freq - np.array(probs) / sum(probs)).max() < 0.01


def test_the_donor_at_index_one_keeps_its_alias(runtime):
    lua = lua_runner(runtime)
    # Torch7 gave J = 1 5 1 5 3 and q = 1 0.5 1 0.75 0.5: column 3's alias (1) was lost
    J, q = lua("""local st = torch.multinomialAliasSetup(torch.Tensor{0.3, 0.1, 0.2, 0.15, 0.25})
        return table.concat(st[1]:totable(), ' '), table.concat(st[2]:totable(), ' ')""")
    assert (J, q) == ("1 5 1 5 3", "1 0.5 0.5 0.75 0.5")


def test_bad_arguments_are_lua_errors(runtime):
    lua = lua_runner(runtime)
    for code in ["torch.multinomialAliasSetup(torch.Tensor(2, 2):fill(0.25))",
                 "torch.multinomialAliasSetup(torch.LongTensor{1, 2})",
                 "torch.multinomialAlias(torch.LongTensor(3), 5)",
                 "torch.multinomialAlias(torch.LongTensor(3), {torch.LongTensor(2), torch.Tensor(3)})"]:
        ok, msg = lua(f"return pcall(function() return {code} end)")
        assert ok is False and "Traceback" not in msg
    # a generator first draws from it, not from the default one
    assert lua("""local g = torch.Generator() torch.manualSeed(g, 5) torch.manualSeed(5)
        local st = torch.multinomialAliasSetup(torch.Tensor{0.1, 0.2, 0.3, 0.4})
        local a = torch.multinomialAlias(g, torch.LongTensor(20), st)
        local b = torch.multinomialAlias(torch.LongTensor(20), st)
        return a:equal(b)""") is True
