"""torch.Generator against the original Torch7: fresh generators seeded from the
system's entropy, the generator argument of every random function, the state's
normal-cache bytes, and .t7 serialization continuing the stream."""
import pytest

from parity_cases import cases, check


@pytest.mark.parametrize("case", cases("generator_"))
def test_generator(case):
    check(case)
