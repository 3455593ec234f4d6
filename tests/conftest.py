"""Shared fixtures; in CI a skipped test is a failure (nothing may pass by not running)."""

import os

import pytest


def pytest_sessionfinish(session, exitstatus):
    """In CI, fail the run when any test was skipped."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("CI") and reporter is not None and reporter.stats.get("skipped"):
        reporter.write_line("CI: skipped tests are not allowed here; see the skip reasons above.", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
