"""Fixtures of the dtb package tests.

The tables come from the environment when CTest runs the suite
(python/CMakeLists.txt): DTB_TEST_TABLES (the 2-4 piece WDL tables of the
suite's fixture), DTB_PYTHON_DTW_TABLES (2-3 pieces with .dtw and .rule), DTB_PYTHON_MTC_TABLES
(2-4 pieces with .mtc),
DTB_BINARY (the `dtb` command line tool the values are checked against).
Run by hand, only DTB_BINARY is needed: missing tables are built into a
temporary directory.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import dtb


def _binary() -> str:
    binary = os.environ.get("DTB_BINARY")
    if not binary:
        pytest.exit("DTB_BINARY (the dtb command line tool) is not set", returncode=2)
    return binary


def _tables(variable: str, gen_args: list, factory) -> str:
    directory = os.environ.get(variable)
    if directory:
        return directory
    built = factory.mktemp(variable.lower())
    subprocess.run([_binary(), "gen", *gen_args, "--quiet", "--out", str(built)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return str(built)


@pytest.fixture(scope="session")
def dtb_binary() -> str:
    return _binary()


@pytest.fixture(scope="session")
def wdl_dir(tmp_path_factory) -> str:
    """The 2-4 piece WDL tables (read only: tests that damage tables copy them first)."""
    return _tables("DTB_TEST_TABLES", ["--max-pieces", "4"], tmp_path_factory)


@pytest.fixture(scope="session")
def dtw_dir(tmp_path_factory) -> str:
    """The 2-3 piece tables with .dtw and .rule tables (every 6.4 material)."""
    return _tables("DTB_PYTHON_DTW_TABLES", ["--max-pieces", "3", "--dtw"], tmp_path_factory)


@pytest.fixture(scope="session")
def mtc_dir(tmp_path_factory) -> str:
    """The 2-4 piece tables with .mtc tables (moves to conversion; every one within article 6.2's 50 plies)."""
    return _tables("DTB_PYTHON_MTC_TABLES", ["--max-pieces", "4", "--mtc"], tmp_path_factory)


@pytest.fixture
def mtc_tb(mtc_dir):
    with dtb.open_tablebase(mtc_dir, cache_mb=16) as tablebase:
        yield tablebase


@pytest.fixture
def tb(wdl_dir):
    with dtb.open_tablebase(wdl_dir, cache_mb=16) as tablebase:
        yield tablebase


@pytest.fixture
def dtw_tb(dtw_dir):
    with dtb.open_tablebase(dtw_dir, cache_mb=16) as tablebase:
        yield tablebase


@pytest.fixture
def copy_of(tmp_path):
    """copy_of(directory) -> a private copy that a test may damage."""
    def copy(directory: str) -> Path:
        target = tmp_path / "tables"
        shutil.copytree(directory, target)
        return target
    return copy
