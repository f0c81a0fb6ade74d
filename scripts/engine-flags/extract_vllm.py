#!/usr/bin/env python3
"""Extract the command-line flags of `vllm serve` from vLLM's own source, statically.

Nothing of vLLM is imported or run: the script reads the Python source with the
`ast` module and re-implements, for the constructs vLLM actually uses, the logic
of `vllm/engine/arg_utils.py` (`get_kwargs` / `_compute_kwargs`, which derive the
argparse type/action/choices from a config dataclass field's type hint) and then
walks the parser-building functions in the order `vllm serve` runs them:

    vllm/entrypoints/cli/serve.py  -> make_arg_parser (vllm/entrypoints/openai/cli_args.py)
        -> explicit parser.add_argument(...) calls
        -> FrontendArgs.add_cli_args   (every FrontendArgs/BaseFrontendArgs field, after
                                        the _customize_cli_kwargs overrides)
        -> AsyncEngineArgs.add_cli_args -> EngineArgs.add_cli_args (arg_utils.py)

Usage (standard library only, Python 3.10+):

    python3 scripts/engine-flags/extract_vllm.py SRC_ROOT VERSION SOURCE_LINE > OUT.flags

SRC_ROOT is a directory holding the `vllm/` package tree of the version (for example
`git archive <tag-commit> vllm | tar -x -C SRC_ROOT`), VERSION is printed in the
header, SOURCE_LINE is the provenance text for the `# source:` header line.

To regenerate the files of this repository (the vLLM tag commits are named in the
headers of vocabulary/src/main/resources/io/servebench/flags/vllm-*.flags):

    mkdir -p /tmp/vllm-src/0.17.1 && git -C <vllm clone> archive \\
        95c0f928cdeeaa21c4906e73cee6a156e1b3b995 vllm | tar -x -C /tmp/vllm-src/0.17.1
    python3 scripts/engine-flags/extract_vllm.py /tmp/vllm-src/0.17.1 0.17.1 \\
        "github.com/vllm-project/vllm@95c0f928... (tag v0.17.1) ..." \\
        > vocabulary/src/main/resources/io/servebench/flags/vllm-0.17.1.flags

Anything the script cannot resolve statically is reported on stderr and written as
KIND `str` with a `# note`.
"""

from __future__ import annotations

import ast
import copy
import os
import re
import sys

BUILTIN_TYPES = {"int", "float", "str", "bool", "dict", "list", "tuple", "set",
                 "bytes", "object", "type", "frozenset", "complex"}
TYPING_SPECIAL = {"Literal", "Optional", "Union", "Annotated", "TypeAlias", "Any",
                  "List", "Dict", "Tuple", "Set", "ClassVar", "Final", "InitVar"}
TYPING_GENERIC_MAP = {"List": "list", "Dict": "dict", "Tuple": "tuple", "Set": "set",
                      "FrozenSet": "frozenset"}
WARNINGS: list[str] = []


def warn(msg: str) -> None:
    WARNINGS.append(msg)
    print("warning: " + msg, file=sys.stderr)


# --------------------------------------------------------------------------
# Modules and name resolution
# --------------------------------------------------------------------------
class Module:
    def __init__(self, name: str, path: str, tree: ast.Module):
        self.name = name
        self.path = path
        self.tree = tree
        self.defs: dict[str, ast.AST] = {}      # name -> ClassDef / FunctionDef / value expr
        self.imports: dict[str, tuple[str, str | None]] = {}  # local -> (module, attr|None)
        self._index(tree.body)

    def _index(self, body):
        for st in body:
            if isinstance(st, ast.ClassDef) or isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.defs[st.name] = st
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        self.defs[t.id] = st.value
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.value is not None:
                self.defs[st.target.id] = st.value
            elif isinstance(st, ast.ImportFrom):
                mod = self._abs(st.module, st.level)
                for a in st.names:
                    self.imports[a.asname or a.name] = (mod, a.name)
            elif isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        self.imports[a.asname] = (a.name, None)
                    else:
                        self.imports[a.name.split(".")[0]] = (a.name.split(".")[0], None)
            elif isinstance(st, ast.If):
                self._index(st.body)
                self._index(st.orelse)
            elif isinstance(st, ast.Try):
                self._index(st.body)
                for h in st.handlers:
                    self._index(h.body)
                self._index(st.orelse)
            elif type(st).__name__ == "TypeAlias":  # `type X = ...` (Python 3.12+ parsers)
                self.defs[st.name.id] = st.value

    def _abs(self, module: str | None, level: int) -> str:
        if level == 0:
            return module or ""
        parts = self.name.split(".")
        is_pkg = self.path.endswith("__init__.py")
        base = parts if is_pkg else parts[:-1]
        base = base[: len(base) - (level - 1)]
        return ".".join(base + ([module] if module else []))


class Source:
    def __init__(self, root: str):
        self.root = root
        self.modules: dict[str, Module | None] = {}

    def module(self, name: str) -> Module | None:
        if name in self.modules:
            return self.modules[name]
        rel = name.replace(".", "/")
        mod = None
        for cand in (rel + ".py", rel + "/__init__.py"):
            p = os.path.join(self.root, cand)
            if os.path.isfile(p):
                with open(p, encoding="utf-8") as f:
                    mod = Module(name, p, ast.parse(f.read(), p))
                break
        self.modules[name] = mod
        return mod

    def lookup(self, mod: Module, name: str, depth: int = 0):
        """Return (kind, module, node) with kind in def|external|builtin|missing."""
        if depth > 30:
            return ("missing", mod, None)
        if name in mod.defs:
            return ("def", mod, mod.defs[name])
        if name in mod.imports:
            src_mod, attr = mod.imports[name]
            if attr is None:
                return ("external", src_mod, None)
            if src_mod.startswith("vllm"):
                m = self.module(src_mod)
                if m is not None:
                    r = self.lookup(m, attr, depth + 1)
                    if r[0] != "missing":
                        return r
                sub = self.module(src_mod + "." + attr)
                if sub is not None:
                    return ("module", sub, None)
                return ("missing", src_mod, attr)
            return ("external", src_mod, attr)
        if name in BUILTIN_TYPES or name == "None":
            return ("builtin", None, name)
        return ("missing", mod, name)

    def find_class(self, mod: Module, name: str) -> tuple[Module, ast.ClassDef] | None:
        r = self.lookup(mod, name)
        if r[0] == "def" and isinstance(r[2], ast.ClassDef):
            return r[1], r[2]
        return None


# --------------------------------------------------------------------------
# Type hints -> atoms (mirrors vllm's get_type_hints: flattens Union/Optional/Annotated)
# Atom forms: ("builtin", name) ("none",) ("literal", values) ("generic", origin, args)
#             ("dataclass", name) ("other", name)
# --------------------------------------------------------------------------
def decorator_names(cls: ast.ClassDef) -> list[str]:
    out = []
    for d in cls.decorator_list:
        n = d.func if isinstance(d, ast.Call) else d
        if isinstance(n, ast.Attribute):
            out.append(n.attr)
        elif isinstance(n, ast.Name):
            out.append(n.id)
    return out


def field_bounds(value: ast.AST | None) -> dict:
    """The numeric bounds of a pydantic `Field(..., gt=, ge=, lt=, le=)` default, which pydantic checks when vLLM
    builds its config from the parsed arguments (the server refuses to start); empty for any other default."""
    if not (isinstance(value, ast.Call) and ast.unparse(value.func).split(".")[-1] == "Field"):
        return {}
    out = {}
    for kw in value.keywords:
        if kw.arg in ("gt", "ge", "lt", "le"):
            try:
                bound = ast.literal_eval(kw.value)
            except ValueError:
                warn(f"bound {kw.arg}={ast.unparse(kw.value)} is not a literal")
                continue
            if isinstance(bound, (int, float)) and not isinstance(bound, bool):
                out[kw.arg] = bound
    return out


def is_dataclass_node(cls: ast.ClassDef) -> bool:
    return any(d in ("dataclass", "config") for d in decorator_names(cls))


class Types:
    def __init__(self, src: Source):
        self.src = src

    def atoms(self, node: ast.AST, mod: Module, depth: int = 0) -> list[tuple]:
        if depth > 40:
            return [("other", "recursion")]
        if node is None:
            return [("other", "none-node")]
        if isinstance(node, ast.Constant):
            if node.value is None:
                return [("none",)]
            if isinstance(node.value, str):  # forward reference / string annotation
                try:
                    return self.atoms(ast.parse(node.value, mode="eval").body, mod, depth + 1)
                except SyntaxError:
                    return [("other", node.value)]
            return [("other", repr(node.value))]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.atoms(node.left, mod, depth + 1) + self.atoms(node.right, mod, depth + 1)
        if isinstance(node, ast.Name):
            return self.name_atoms(node.id, mod, depth)
        if isinstance(node, ast.Attribute):
            # typing.Literal etc. / module.Class
            if isinstance(node.value, ast.Name):
                r = self.src.lookup(mod, node.value.id)
                if r[0] == "module":
                    return self.name_atoms(node.attr, r[1], depth + 1)
                if r[0] == "external" and r[1] in ("typing", "typing_extensions") and node.attr in BUILTIN_TYPES:
                    return [("builtin", node.attr)]
            return [("other", ast.unparse(node))]
        if isinstance(node, ast.Subscript):
            head = self.head_name(node.value, mod)
            args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if head == "Literal":
                vals = []
                for a in args:
                    if isinstance(a, ast.Constant):
                        vals.append(a.value)
                    else:  # nested Literal alias
                        for at in self.atoms(a, mod, depth + 1):
                            if at[0] == "literal":
                                vals.extend(at[1])
                            else:
                                warn(f"unresolved Literal member {ast.unparse(a)} in {mod.name}")
                return [("literal", tuple(vals))]
            if head == "Optional":
                return self.atoms(args[0], mod, depth + 1) + [("none",)]
            if head == "Union":
                out = []
                for a in args:
                    out += self.atoms(a, mod, depth + 1)
                return out
            # pydantic's SkipValidation[X] is Annotated[X, SkipValidation()] at run time
            if head in ("Annotated", "ClassVar", "Final", "InitVar", "SkipValidation"):
                return self.atoms(args[0], mod, depth + 1)
            if head in BUILTIN_TYPES or head in TYPING_GENERIC_MAP:
                origin = TYPING_GENERIC_MAP.get(head, head)
                return [("generic", origin, tuple(self.elem(a, mod, depth) for a in args))]
            return [("other", ast.unparse(node))]
        return [("other", ast.unparse(node))]

    def elem(self, a: ast.AST, mod: Module, depth: int):
        if isinstance(a, ast.Constant) and a.value is Ellipsis:
            return "..."
        return tuple(self.atoms(a, mod, depth + 1))

    def head_name(self, node: ast.AST, mod: Module) -> str:
        if isinstance(node, ast.Attribute):
            return node.attr if node.attr in TYPING_SPECIAL or node.attr in TYPING_GENERIC_MAP else ast.unparse(node)
        if isinstance(node, ast.Name):
            r = self.src.lookup(mod, node.id)
            if r[0] == "external" and r[2] is not None:
                return r[2]
            if r[0] == "builtin":
                return node.id
            if r[0] == "def" and not isinstance(r[2], (ast.ClassDef, ast.FunctionDef)):
                # alias to typing construct, e.g. X = Literal
                return self.head_name(r[2], r[1])
            return node.id
        return ast.unparse(node)

    def name_atoms(self, name: str, mod: Module, depth: int) -> list[tuple]:
        r = self.src.lookup(mod, name)
        kind = r[0]
        if kind == "builtin":
            return [("none",)] if r[2] == "None" else [("builtin", r[2])]
        if kind == "def":
            node = r[2]
            if isinstance(node, ast.ClassDef):
                if is_dataclass_node(node):
                    return [("dataclass", name)]
                return [("other", name)]
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return [("other", name)]
            return self.atoms(node, r[1], depth + 1)  # type alias
        if kind == "external":
            attr = r[2]
            if r[1] in ("typing", "typing_extensions") and attr in TYPING_GENERIC_MAP:
                return [("builtin", TYPING_GENERIC_MAP[attr])]
            return [("other", f"{r[1]}.{attr}")]
        warn(f"cannot resolve type name {name!r} in {mod.name}")
        return [("other", name)]


def atom_is(atom, t: str) -> bool:
    if t == "literal":
        return atom[0] == "literal"
    if atom[0] == "builtin":
        return atom[1] == t
    if atom[0] == "generic":
        return atom[1] == t
    return False


def contains(atoms, t):
    return any(atom_is(a, t) for a in atoms)


def not_builtin(atom) -> bool:
    return atom[0] in ("dataclass", "other")


# --------------------------------------------------------------------------
# get_kwargs re-implementation
# --------------------------------------------------------------------------
class Engine:
    def __init__(self, root: str):
        self.src = Source(root)
        self.types = Types(self.src)
        au = self.src.module("vllm.engine.arg_utils")
        self.arg_utils = au
        ck = au.defs.get("_compute_kwargs")
        ck_src = ast.unparse(ck) if ck is not None else ""
        self.has_bool_str_none_case = "type_hints == {bool, str, type(None)}" in ck_src
        # names given human_readable_int / human_readable_int_or_auto
        self.hr_auto: set[str] = set()
        self.hr_int: set[str] = set()
        for node in ast.walk(ck) if ck is not None else []:
            if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
                names = self._names_in_test(node.test, ck)
                body_src = ast.unparse(node.body[0]) if node.body else ""
                if "human_readable_int_or_auto" in body_src:
                    self.hr_auto |= names
                elif "human_readable_int" in body_src:
                    self.hr_int |= names
        self.cache: dict[tuple[str, str], dict] = {}

    def _names_in_test(self, test: ast.Compare, fn) -> set[str]:
        out = set()
        for c in test.comparators:
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                out.add(c.value)
            elif isinstance(c, (ast.Tuple, ast.Set, ast.List)):
                out |= {e.value for e in c.elts if isinstance(e, ast.Constant)}
            elif isinstance(c, ast.Name):  # a local set assigned earlier
                for n in ast.walk(fn):
                    if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == c.id for t in n.targets):
                        if isinstance(n.value, (ast.Set, ast.Tuple, ast.List)):
                            out |= {e.value for e in n.value.elts if isinstance(e, ast.Constant)}
        return out

    # fields of a dataclass, including bases (base first), in definition order: name, annotation, module, and the
    # bounds its pydantic Field states (empty unless the declaring class is a pydantic dataclass through @config)
    def class_fields(self, mod: Module, cls: ast.ClassDef) -> list[tuple[str, ast.AST, Module, dict]]:
        out: list[tuple[str, ast.AST, Module, dict]] = []
        for b in cls.bases:
            if isinstance(b, ast.Name):
                found = self.src.find_class(mod, b.id)
                if found and is_dataclass_node(found[1]):
                    for f in self.class_fields(*found):
                        out = [x for x in out if x[0] != f[0]] + [f]
        for st in cls.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                ann = st.annotation
                head = ast.unparse(ann)
                if head.startswith(("ClassVar", "typing.ClassVar", "InitVar")):
                    continue
                name = st.target.id
                if name.startswith("_") and False:
                    continue
                out = [x for x in out if x[0] != name]
                bounds = field_bounds(st.value) if "config" in decorator_names(cls) else {}
                out.append((name, ann, mod, bounds))
        return out

    def field_spec(self, fname: str, ann: ast.AST, mod: Module) -> dict:
        hints = self.types.atoms(ann, mod)
        spec: dict = {"field": fname, "hints": hints}
        dataclass_atom = next((a for a in hints if a[0] == "dataclass"), None)
        if dataclass_atom is not None:
            spec["type"] = "json"
        elif self.has_bool_str_none_case and {a[0] if a[0] != "builtin" else a[1] for a in hints} == {"bool", "str", "none"}:
            spec["type"] = "str"
            spec["nargs"] = "?"
            spec["note"] = "bare flag means True"
        elif contains(hints, "bool"):
            spec["action"] = "BooleanOptionalAction"
        elif contains(hints, "literal"):
            spec.update(self.literal_kwargs(hints))
        elif contains(hints, "tuple") or contains(hints, "list") or contains(hints, "set"):
            t = "tuple" if contains(hints, "tuple") else ("list" if contains(hints, "list") else "set")
            spec.update(self.collection_kwargs(hints, t, fname))
        elif contains(hints, "int"):
            spec["type"] = "int"
            if fname in self.hr_auto:
                spec["note"] = "human_readable_int_or_auto: also 1k, 2M, ... or auto/-1"
            elif fname in self.hr_int:
                spec["note"] = "human_readable_int: also 1k, 2M, ..."
        elif contains(hints, "float"):
            spec["type"] = "float"
        elif contains(hints, "dict") and (contains(hints, "str") or any(not_builtin(a) for a in hints)):
            spec["type"] = "str"
            spec["note"] = "union_dict_and_str: plain text or a JSON object"
        elif contains(hints, "dict"):
            spec["type"] = "json"
        elif contains(hints, "str") or any(not_builtin(a) for a in hints):
            spec["type"] = "str"
        else:
            warn(f"unsupported type {hints} for field {fname}")
            spec["type"] = "str"
            spec["note"] = "type not determined statically"
        if ("none",) in hints and not contains(hints, "bool"):
            if spec.get("choices"):
                spec["choices"] = list(spec["choices"]) + ["None"]
        return spec

    def literal_kwargs(self, hints) -> dict:
        lit = next(a for a in hints if a[0] == "literal")
        opts = list(lit[1])
        if contains(hints, "str"):
            return {"type": "str" if isinstance(opts[0], str) else type(opts[0]).__name__,
                    "metavar": sorted(opts, key=str)}
        t = type(opts[0]).__name__
        return {"type": t, "choices": sorted(opts)}

    def collection_kwargs(self, hints, t, fname) -> dict:
        g = next(a for a in hints if atom_is(a, t))
        if g[0] == "builtin":  # bare list / tuple
            return {"type": "str", "nargs": "+"}
        args = g[2]
        elem = next((a for a in args if a != "..."), ())
        spec: dict = {"nargs": "+" if t != "tuple" or "..." in args else str(len(args))}
        elem_atoms = list(elem)
        if len(elem_atoms) > 1:  # union element -> str
            spec["type"] = "str"
        elif elem_atoms and elem_atoms[0][0] == "literal":
            spec.update(self.literal_kwargs(elem_atoms))
        elif elem_atoms and elem_atoms[0][0] == "builtin":
            n = elem_atoms[0][1]
            spec["type"] = {"int": "int", "float": "float", "str": "str", "bool": "str"}.get(n, "str")
            if n == "bool":
                spec["note"] = "element type bool: argparse calls bool(text)"
        elif elem_atoms and elem_atoms[0][0] == "dataclass":
            spec["type"] = "str"
            spec["note"] = "element is a config class given to argparse as type"
        else:
            spec["type"] = "str"
        return spec

    def get_kwargs(self, mod: Module, clsname: str) -> dict[str, dict]:
        found = self.src.find_class(mod, clsname)
        if not found:
            warn(f"class {clsname} not found from {mod.name}")
            return {}
        key = (found[0].name, clsname)
        if key not in self.cache:
            fields = {}
            for f, ann, m, bounds in self.class_fields(*found):
                fields[f] = self.field_spec(f, ann, m)
                if bounds and fields[f].get("type") in ("int", "float") and "nargs" not in fields[f]:
                    fields[f]["bounds"] = bounds
            self.cache[key] = fields
        return copy.deepcopy(self.cache[key])


# --------------------------------------------------------------------------
# Walking the parser-building code
# --------------------------------------------------------------------------
class Walker:
    def __init__(self, eng: Engine):
        self.eng = eng
        self.flags: list[dict] = []
        self.visited: set[tuple[str, str]] = set()

    # evaluate a kwarg value expression into our spec vocabulary
    def eval_type(self, node: ast.AST) -> tuple[str, str | None]:
        src = ast.unparse(node)
        if isinstance(node, ast.Name):
            n = node.id
            if n in ("int", "float", "str"):
                return n, None
            if n in ("nullable_str",):
                return "str", None
            if n == "human_readable_int":
                return "int", "human_readable_int: also 1k, 2M, ..."
            if n == "human_readable_int_or_auto":
                return "int", "human_readable_int_or_auto: also 1k, 2M, ... or auto/-1"
            if n == "union_dict_and_str":
                return "str", "union_dict_and_str: plain text or a JSON object"
            if n in ("nullable_kvs",):
                return "str", f"{n}: KEY=VALUE,..."
            return "str", f"custom type {n}"
        if isinstance(node, ast.Attribute) and src in ("json.loads",):
            return "json", None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("optional_type", "parse_type") and node.args:
            return self.eval_type(node.args[0])
        if isinstance(node, ast.Lambda):
            return "str", f"custom type: {src}"
        return "str", f"custom type {src}"

    def eval_value(self, key: str, node: ast.AST, env: dict):
        if key == "type":
            t, note = self.eval_type(node)
            return {"type": t, "note": note}  # a new type replaces the old note
        if key == "action":
            if isinstance(node, ast.Constant):
                return {"action": node.value}
            s = ast.unparse(node)
            if s.endswith("BooleanOptionalAction"):
                return {"action": "BooleanOptionalAction"}
            return {"action": "custom:" + s}
        if key == "choices":
            vals = self.const_list(node, env)
            if vals is None:
                return {"choices": None, "choices_dynamic": ast.unparse(node)}
            return {"choices": vals}
        if key in ("nargs", "const", "metavar", "default", "dest", "required"):
            if isinstance(node, ast.Constant):
                return {key: node.value}
            return {key: "<expr>"}
        return {}

    def permutation_joins(self, node, env):
        """[",".join(p) for p in permutations(get_args(LITERAL), r=N)]"""
        import itertools
        if not (isinstance(node, ast.ListComp) and len(node.generators) == 1):
            return None
        it = node.generators[0].iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "permutations"):
            return None
        base = self.const_list(it.args[0], env) if it.args else None
        r = next((k.value.value for k in it.keywords if k.arg == "r" and isinstance(k.value, ast.Constant)), None)
        elt = node.elt
        if base is None or r is None or not (isinstance(elt, ast.Call) and isinstance(elt.func, ast.Attribute)
                                             and elt.func.attr == "join" and isinstance(elt.func.value, ast.Constant)):
            return None
        sep = elt.func.value.value
        return [sep.join(p) for p in itertools.permutations(base, r)]

    def const_list(self, node, env):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            if all(isinstance(e, ast.Constant) for e in node.elts):
                return [e.value for e in node.elts]
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "get_args" and node.args:
            atoms = self.eng.types.atoms(node.args[0], env["__mod__"])
            lit = [a for a in atoms if a[0] == "literal"]
            if lit:
                return list(lit[0][1])
        return None

    def resolve_spec_ref(self, node: ast.AST, env: dict):
        """node is X["field"] (X a kwargs dict) or a Name bound to a field spec."""
        if isinstance(node, ast.Name):
            v = env.get(node.id)
            return v if isinstance(v, dict) and "field" in v else None
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            d = env.get(node.value.id)
            if isinstance(d, dict) and "__kwargs__" in d and isinstance(node.slice, ast.Constant):
                spec = d["__kwargs__"].get(node.slice.value)
                if spec is None:
                    warn(f"{node.value.id}[{node.slice.value!r}] not found")
                return spec
        return None

    def run_function(self, mod: Module, fn: ast.FunctionDef, env: dict):
        env = dict(env)
        env["__mod__"] = mod
        self.run_body(fn.body, mod, env)
        return env

    def run_body(self, body, mod, env):
        for st in body:
            self.run_stmt(st, mod, env)

    def run_stmt(self, st, mod, env):
        if isinstance(st, (ast.If, ast.For, ast.While)):
            self.run_body(st.body, mod, env)
            self.run_body(st.orelse, mod, env)
            return
        if isinstance(st, ast.With):
            self.run_body(st.body, mod, env)
            return
        if isinstance(st, ast.Try):
            self.run_body(st.body, mod, env)
            return
        if isinstance(st, ast.Assign):
            val = st.value
            for t in st.targets:
                if isinstance(t, ast.Name):
                    if isinstance(val, ast.Call):
                        self.handle_call(val, mod, env)  # e.g. parser = X.add_cli_args(parser)
                        fname = ast.unparse(val.func)
                        if fname.endswith("get_kwargs") and val.args:
                            cls_node = val.args[0]
                            if isinstance(cls_node, ast.Name) and cls_node.id == "cls":
                                cls_name = env.get("__cls__")
                            else:
                                cls_name = ast.unparse(cls_node)
                            env[t.id] = {"__kwargs__": self.eng.get_kwargs(mod, cls_name)}
                        elif fname.endswith("_customize_cli_kwargs"):
                            pass  # handled in FrontendArgs processing
                    else:
                        spec = self.resolve_spec_ref(val, env)
                        if spec is not None:
                            env[t.id] = spec
                elif isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant):
                    spec = self.resolve_spec_ref(t.value, env)
                    if spec is not None:
                        spec.update(self.eval_value(t.slice.value, val, env))
            return
        if isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Subscript):
            t = st.target
            spec = self.resolve_spec_ref(t.value, env)
            if spec is not None and isinstance(t.slice, ast.Constant) and t.slice.value == "choices":
                extra = self.const_list(st.value, env)
                if extra is None:
                    extra = self.permutation_joins(st.value, env)
                if extra is None:
                    spec["choices_extra"] = ast.unparse(st.value)
                else:
                    spec["choices"] = list(spec.get("choices") or []) + extra
            return
        if isinstance(st, ast.Delete):
            for t in st.targets:
                if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant):
                    spec = self.resolve_spec_ref(t.value, env)
                    if spec is not None:
                        spec.pop(t.slice.value, None)
            return
        if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
            self.handle_call(st.value, mod, env)
            return
        if isinstance(st, ast.Return) and isinstance(st.value, ast.Call):
            self.handle_call(st.value, mod, env)

    def handle_call(self, call: ast.Call, mod: Module, env):
        f = call.func
        if isinstance(f, ast.Attribute) and f.attr == "add_argument":
            self.add_argument(call, mod, env)
            return
        if isinstance(f, ast.Attribute) and f.attr == "update" and isinstance(f.value, ast.Subscript):
            spec = self.resolve_spec_ref(f.value, env)
            if spec is not None and call.args and isinstance(call.args[0], ast.Dict):
                for k, v in zip(call.args[0].keys, call.args[0].values):
                    if isinstance(k, ast.Constant):
                        spec.update(self.eval_value(k.value, v, env))
            return
        if isinstance(f, ast.Attribute) and f.attr == "add_cli_args" and isinstance(f.value, ast.Name):
            self.call_add_cli_args(f.value.id, mod)
            return
        if isinstance(f, ast.Name) and f.id == "make_arg_parser":
            r = self.eng.src.lookup(mod, "make_arg_parser")
            if r[0] == "def":
                self.run_function(r[1], r[2], {})

    def call_add_cli_args(self, clsname: str, mod: Module):
        found = self.eng.src.find_class(mod, clsname)
        if not found:
            warn(f"add_cli_args: class {clsname} not found")
            return
        cmod, cls = found
        key = (cmod.name, cls.name)
        if key in self.visited:
            return
        self.visited.add(key)
        fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "add_cli_args"), None)
        if fn is None:  # inherited (FrontendArgs uses BaseFrontendArgs.add_cli_args)
            for b in cls.bases:
                if isinstance(b, ast.Name):
                    bf = self.eng.src.find_class(cmod, b.id)
                    if bf:
                        fn = next((s for s in bf[1].body if isinstance(s, ast.FunctionDef) and s.name == "add_cli_args"), None)
                        if fn is not None:
                            break
        if fn is None:
            warn(f"no add_cli_args for {clsname}")
            return
        if "for key, value in frontend_kwargs.items()" in ast.unparse(fn):
            self.frontend_args(cmod, cls)
        else:
            self.run_function(cmod, fn, {"__cls__": cls.name})

    def customize_chain(self, mod: Module, cls: ast.ClassDef) -> list[tuple[Module, ast.FunctionDef]]:
        chain = []
        for b in cls.bases:
            if isinstance(b, ast.Name):
                bf = self.eng.src.find_class(mod, b.id)
                if bf:
                    chain += self.customize_chain(*bf)
        fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "_customize_cli_kwargs"), None)
        if fn is not None:
            chain.append((mod, fn))
        return chain

    def frontend_args(self, mod: Module, cls: ast.ClassDef):
        kwargs = self.eng.get_kwargs(mod, cls.name)
        holder = {"__kwargs__": kwargs}
        for m, fn in self.customize_chain(mod, cls):
            argname = fn.args.args[1].arg if len(fn.args.args) > 1 else "frontend_kwargs"
            self.run_function(m, fn, {argname: holder})
        for key, spec in kwargs.items():
            names = [f"--{key.replace('_', '-')}"]
            flags = spec.pop("flags", None)
            if isinstance(flags, list):
                names = flags + names
            self.emit(names, spec, canonical=names[-1])

    def add_argument(self, call: ast.Call, mod: Module, env):
        names = []
        for a in call.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                names.append(a.value)
            elif isinstance(a, ast.JoinedStr) or isinstance(a, ast.Starred):
                pass
            else:
                warn(f"non-constant argument name {ast.unparse(a)}")
        if not names or not any(n.startswith("-") for n in names):
            return  # positional (model_tag)
        spec: dict = {}
        for kw in call.keywords:
            if kw.arg is None:  # **something
                spec.update(self.expand(kw.value, env))
            else:
                spec.update(self.eval_value(kw.arg, kw.value, env))
        self.emit(names, spec)

    def expand(self, node, env) -> dict:
        ref = self.resolve_spec_ref(node, env)
        if ref is not None:
            return copy.deepcopy(ref)
        if isinstance(node, ast.Dict):
            out: dict = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    out.update(self.expand(v, env))
                elif isinstance(k, ast.Constant):
                    out.update(self.eval_value(k.value, v, env))
            return out
        warn(f"cannot expand **{ast.unparse(node)}")
        return {"note": "kwargs not resolved statically"}

    def emit(self, names, spec, canonical=None):
        longs = [n for n in names if n.startswith("--")]
        canon = canonical or (longs[0] if longs else names[0])
        aliases = [n for n in names if n != canon]
        self.flags.append({"name": canon, "aliases": aliases, "spec": spec})


# --------------------------------------------------------------------------
def kind_line(flag) -> tuple[str, list[str]]:
    s = flag["spec"]
    notes = []
    extra_lines = []
    action = s.get("action")
    nargs = s.get("nargs")
    choices = s.get("choices")
    if action in ("store_true", "store_false", "store_const", "count", "help", "version"):
        kind = "switch"
        choices = None
        nargs = None
    elif action == "BooleanOptionalAction":
        kind = "bool"
        choices = None
        nargs = None
    else:
        if action == "append":
            notes.append("repeatable (action=append)")
        elif action and action.startswith("custom:"):
            notes.append(f"action {action[7:]}")
        t = s.get("type", "str")
        if choices:
            kind = "choice"
        else:
            kind = t if t in ("int", "float", "str", "json") else "str"
        if s.get("choices_dynamic"):
            notes.append(f"choices computed at run time: {s['choices_dynamic']}")
        if s.get("choices_extra"):
            notes.append(f"also accepts: {s['choices_extra']}")
        if s.get("note"):
            notes.append(s["note"])
        if nargs == "?" and s.get("const") is not None:
            notes.append("given bare it means True")
    line = f"{flag['name']} {kind}"
    if kind == "choice":
        cs = [str(c) for c in choices]
        if any("," in c for c in cs):
            extra_lines.append(f"# note: {flag['name']} choices contain commas: {'|'.join(cs)}")
            cs = [c for c in cs if "," not in c]
        line += " choices=" + ",".join(cs)
    bounds = s.get("bounds")
    if bounds and kind in ("int", "float"):
        low = ("(" + str(bounds["gt"])) if "gt" in bounds else ("[" + str(bounds["ge"])) if "ge" in bounds else "("
        high = (str(bounds["lt"]) + ")") if "lt" in bounds else (str(bounds["le"]) + "]") if "le" in bounds else ")"
        line += f" range={low},{high}"
    if flag["aliases"]:
        line += " aliases=" + ",".join(flag["aliases"])
    if nargs in ("+", "*", "?"):
        line += f" nargs={nargs}"
    elif nargs not in (None,):
        notes.append(f"nargs={nargs}")
    if notes:
        line += " # " + "; ".join(notes)
    return line, extra_lines


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    root, version, source = argv[1], argv[2], argv[3]
    eng = Engine(root)
    w = Walker(eng)
    serve = eng.src.module("vllm.entrypoints.cli.serve")
    # serve.py's subparser_init: add_parser("serve") then make_arg_parser(serve_parser) and
    # any add_argument calls of its own.
    cls = next(n for n in ast.walk(serve.tree) if isinstance(n, ast.FunctionDef) and n.name == "subparser_init")
    w.run_function(serve, cls, {})
    seen = {}
    for f in w.flags:
        if f["name"] in seen:
            warn(f"duplicate flag {f['name']}")
        seen[f["name"]] = f
    out = [f"# vLLM {version}: the arguments of `vllm serve`",
           f"# source: {source}",
           "# NAME KIND [choices=a,b,c] [range=(low,high]] [aliases=-x,--y] [nargs=+|*|?]",
           "# KIND: switch (no value: store_true/store_false/store_const), bool (argparse.BooleanOptionalAction: no value, and --no-NAME is accepted too),",
           "#       int, float, str (any text), json (a JSON value), choice (one of choices=)",
           "# range: the bounds of the config field's pydantic Field (gt/ge/lt/le; ( ) exclusive, [ ] inclusive, no number: unbounded),"
           " which vLLM checks when it builds its config from the arguments, refusing to start",
           "# parser: entrypoints/cli/serve.py subparser_init -> make_arg_parser (entrypoints/openai/cli_args.py: explicit add_argument calls"
           " + FrontendArgs fields after _customize_cli_kwargs) -> AsyncEngineArgs/EngineArgs.add_cli_args (engine/arg_utils.py; kinds from"
           " the vllm/config/*.py field types through get_kwargs)",
           "# also accepted, not listed: the positional model_tag; -h/--help[=keyword]; FlexibleArgumentParser's rewrites (--foo_bar -> --foo-bar,"
           " -O<n> / -O <n> -> --optimization-level <n>, --json-flag.key value / key+ -> JSON); argparse prefix abbreviations; flags a platform"
           " plugin adds in current_platform.pre_register_and_update",
           "# generated by scripts/engine-flags/extract_vllm.py (static reading of the source with ast; nothing imported)"]
    notes_after = []
    for name in sorted(seen):
        line, extra = kind_line(seen[name])
        out.append(line)
        notes_after += extra
    out += notes_after
    print("\n".join(out))
    print(f"{len(seen)} flags, {len(WARNINGS)} warnings", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
