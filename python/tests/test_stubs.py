"""The type stubs (toroid/_toroid.pyi) name what the extension module has, with the same
parameters, so that they cannot drift from python/src."""

import ast
import inspect
import pathlib

import pytest

import toroid
import toroid._toroid as module

STUB = ast.parse((pathlib.Path(toroid.__file__).parent / "_toroid.pyi").read_text())
CLASSES = {node.name: node for node in STUB.body if isinstance(node, ast.ClassDef)}


def parameters(function):
    args = function.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    if args.vararg:
        names.append("*" + args.vararg.arg)
    if args.kwarg:
        names.append("**" + args.kwarg.arg)
    return [n for n in names if n != "self"]


def runtime_parameters(callable_):
    prefix = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
    return [
        prefix.get(p.kind, "") + p.name
        for p in inspect.signature(callable_).parameters.values()
        if p.name != "self"
    ]


def test_the_stub_names_every_public_name_of_the_module():
    stubbed = {
        getattr(node, "name", None) or node.target.id
        for node in STUB.body
        # Type aliases (`Move = ...`) are the stub's own, not the module's: not counted.
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AnnAssign))
    }
    public = {name for name in dir(module) if not name.startswith("_")}
    assert stubbed == public


@pytest.mark.parametrize("name", ["Game", "Bot", "VectorEnv"])
def test_each_class_has_what_its_stub_says(name):
    runtime = getattr(module, name)
    methods = {node.name: node for node in CLASSES[name].body if isinstance(node, ast.FunctionDef)}
    public = {a for a in vars(runtime) if not a.startswith("_")}
    assert set(methods) - {"__init__"} == public
    assert parameters(methods["__init__"]) == runtime_parameters(runtime)
    for method, node in methods.items():
        member = inspect.getattr_static(runtime, method)
        if method != "__init__" and not inspect.isdatadescriptor(member):
            assert parameters(node) == runtime_parameters(getattr(runtime, method)), method
