"""The Python examples of docs/python.md and the README, and python/examples, run."""

import re
import subprocess
import sys

import pytest
from conftest import REPO

EXAMPLES = [
    example
    for page in (REPO / "docs" / "python.md", REPO / "README.md")
    for example in re.findall(r"```python\n(.*?)```", page.read_text(), re.S)
]


def run_python(args, cwd):
    done = subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_page_has_examples():
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_doc_example_runs(index, tmp_path):
    assert run_python(["-c", EXAMPLES[index]], tmp_path).strip()


def test_training_example_runs_briefly(tmp_path):
    script = REPO / "python" / "examples" / "train_policy.py"
    out = run_python([str(script), "--iterations", "100", "--envs", "32"], tmp_path)
    assert "win rate" in out.splitlines()[-1]
