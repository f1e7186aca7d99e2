"""Class metatables and small utilities against the original Torch7: luaT's
fields (`__index__`, `__constructor`, `__metatable`, ...), `new` on torch.class
classes, t:isTensor(), x:real(), torch.setheaptracking."""
import pytest

from parity_cases import cases, check


@pytest.mark.parametrize("case", cases("metatables"))
def test_metatables(case):
    check(case)
