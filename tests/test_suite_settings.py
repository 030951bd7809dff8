"""The suite does not depend on the machine's speed (issue 29, item 8)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_hypothesis_profile_has_no_deadline():
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


@settings(max_examples=3)
@given(st.integers())
def test_a_module_setting_keeps_the_profile_deadline(x):
    # a decorator that sets only max_examples inherits the profile's deadline (None), so a
    # slow example on a busy machine is not a failure
    assert settings().deadline is None
