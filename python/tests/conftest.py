"""Shared fixtures: the `toroid` command-line program the Python API is checked against."""

import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# Every rule set on a small board (so that random games end within a few dozen moves), the
# Go family on wrapped and reversed surfaces too, and the loop games with the pie rule.
RULE_SETS = [
    ("torus", {"size": 5}),
    ("hex-torus", {"width": 5, "height": 6}),
    ("hex-torus", {"width": 4, "height": 4, "swap": True}),
    ("m-torus", {"width": 5, "height": 5}),
    ("m-torus", {"width": 5, "height": 5, "swap": True}),
    ("ctor", {"size": 5}),
    ("capture-go", {"size": 5, "target": 2}),
    ("capture-go", {"size": 5, "topology": "klein", "target": 3}),
    ("go", {"size": 5}),
    ("go", {"size": 5, "topology": "torus", "ko": "positional"}),
    ("go", {"size": 5, "topology": "projective", "scoring": "territory"}),
]


def rule_set_id(rule_set):
    name, params = rule_set
    return name + "".join(f"-{k}={v}" for k, v in params.items())


class Cli:
    """The `toroid` binary: TOROID_CLI names it, else the workspace's debug build."""

    def __init__(self, path):
        self.path = path

    def json(self, *args):
        out = subprocess.run(
            [str(self.path), *args, "--json"], check=True, capture_output=True, text=True
        )
        return json.loads(out.stdout)

    def replay(self, name, params, moves):
        return self.json("replay", name, *param_args(params), *moves)

    def topology(self, name, params):
        return self.json("topology", name, *param_args(params))


def param_text(value):
    """A parameter value as the command line takes it (`swap=true`)."""
    return str(value).lower() if isinstance(value, bool) else value


def param_args(params):
    return [arg for k, v in params.items() for arg in ("-p", f"{k}={param_text(v)}")]


@pytest.fixture(scope="session")
def cli():
    path = pathlib.Path(os.environ.get("TOROID_CLI", REPO / "target" / "debug" / "toroid"))
    if not path.is_file():
        pytest.fail(f"the toroid CLI is missing at {path}: run `cargo build -p toroid`")
    return Cli(path)
