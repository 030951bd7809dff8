"""Suite-wide test settings.

Hypothesis runs under the ``gunbai`` profile: no per-example deadline and no "too slow" health
check, so that a property test never fails because the machine is busy (issue 29, item 8: a
200 ms deadline failed ``test_split_levels_agrees_with_peeling`` once on a loaded machine).
Test modules may still set ``max_examples``; they inherit the rest from this profile.
"""

from hypothesis import HealthCheck, settings

settings.register_profile("gunbai", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gunbai")
