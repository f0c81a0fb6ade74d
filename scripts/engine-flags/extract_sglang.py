#!/usr/bin/env python3
"""List the command-line flags of SGLang's server from its own argument parser.

Reads SGLang's ``python/sglang/srt/server_args.py`` with Python's ``ast``
module (nothing is imported or executed) and writes one ``.flags`` file in the
ServeBench format (see ``vocabulary/src/main/resources/io/servebench/flags``).

Two styles of parser declaration are understood:

* explicit ``parser.add_argument("--name", "--alias", type=..., action=...,
  choices=..., nargs=...)`` calls anywhere inside ``ServerArgs.add_cli_args``
  (every SGLang release up to ~0.5.1x);
* the newer dataclass style, where ``add_cli_args`` calls
  ``add_cli_args_from_dataclass(parser, ServerArgs)`` and each field is
  declared as ``name: A[T, "help"]`` or ``A[T, Arg(help=..., choices=...,
  aliases=..., cli_name=..., type_parser=..., nargs=..., action=...)]``.
  The rules of ``sglang/srt/arg_groups/arg_utils.py`` are replayed here:
  Literal[...] gives choices, List[X] gives nargs="+", bool gives
  store_true, ``no_cli=True`` fields are skipped, fields without ``Arg`` or a
  help string are skipped.

``choices=`` given as names are resolved to literal values: module-level
lists/tuples/sets in server_args.py, names imported from other ``sglang``
modules (read from SRC_ROOT), class attributes (``Backend.ALL``),
``dict.keys()``, ``list(...)``, ``a + b``, ``[*a, "b"]`` and
``[m.name.lower() for m in SomeEnum]``. Values added later by plugin hooks
(``add_*_choices`` functions) are not included. What cannot be resolved is
written as ``str`` with a ``# note``.

Rerun (from the repository root), with a checkout or export of the SGLang
source tree at the wanted tag::

    git -C <sglang.git> archive v0.5.9 python/sglang | tar -x -C /tmp/sgl-0.5.9
    python3 scripts/engine-flags/extract_sglang.py \\
        /tmp/sgl-0.5.9/python/sglang/srt/server_args.py 0.5.9 \\
        --source "sgl-project/sglang tag v0.5.9 (commit ...): python/sglang/srt/server_args.py" \\
        -o vocabulary/src/main/resources/io/servebench/flags/sglang-0.5.9.flags

Arguments: the server_args.py path and the version label; ``--src-root``
(default: the ``python/`` directory three levels above server_args.py) is
where imported ``sglang.*`` modules are read from; ``--source`` is the text of
the ``# source:`` header line; ``-o`` is the output file (default stdout).
Plain Python 3 (3.9+), standard library only.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from typing import Any, Dict, List, Optional, Tuple


class Unresolved(Exception):
    pass


# ---------------------------------------------------------------------------
# A small static evaluator for constant expressions in Python modules
# ---------------------------------------------------------------------------


class EnumMember:
    def __init__(self, name: str, value: Any):
        self.name = name
        self.value = value


class ClassRef:
    def __init__(self, module: "Module", node: ast.ClassDef):
        self.module = module
        self.node = node
        self.assigns: Dict[str, ast.expr] = {}
        for stmt in node.body:
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        self.assigns[t.id] = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                if isinstance(stmt.target, ast.Name):
                    self.assigns[stmt.target.id] = stmt.value

    def attr(self, name: str):
        if name not in self.assigns:
            raise Unresolved(f"{self.node.name}.{name} is not a class-level assignment")
        return self.module.eval(self.assigns[name], class_scope=self)

    def is_enum(self) -> bool:
        for b in self.node.bases:
            n = b.attr if isinstance(b, ast.Attribute) else getattr(b, "id", "")
            if n in ("Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"):
                return True
        return False

    def enum_members(self) -> List[EnumMember]:
        out = []
        for name in self.assigns:
            if name.startswith("_"):
                continue
            try:
                v = self.attr(name)
            except Unresolved:
                v = None
            out.append(EnumMember(name, v))
        return out


class Module:
    cache: Dict[str, "Module"] = {}

    def __init__(self, path: str, src_root: Optional[str]):
        self.path = path
        self.src_root = src_root
        with open(path, encoding="utf-8") as f:
            self.tree = ast.parse(f.read(), filename=path)
        self.assigns: Dict[str, ast.expr] = {}
        self.mutations: Dict[str, List[Tuple[str, ast.expr]]] = {}
        self.imports: Dict[str, Tuple[str, str]] = {}
        self.classes: Dict[str, ast.ClassDef] = {}
        self.functions: Dict[str, ast.FunctionDef] = {}
        self._values: Dict[str, Any] = {}
        self._visit(self.tree.body)

    def _visit(self, body):
        for stmt in body:
            if isinstance(stmt, ast.Assign):
                for t in stmt.targets:
                    if isinstance(t, ast.Name):
                        self.assigns[t.id] = stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                if isinstance(stmt.target, ast.Name):
                    self.assigns[stmt.target.id] = stmt.value
            elif isinstance(stmt, ast.ImportFrom) and stmt.module and stmt.level == 0:
                for a in stmt.names:
                    self.imports[a.asname or a.name] = (stmt.module, a.name)
            elif isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[stmt.name] = stmt
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                # top-level NAME.append(x) / NAME.extend(xs)
                fn = stmt.value.func
                if (
                    isinstance(fn, ast.Attribute)
                    and isinstance(fn.value, ast.Name)
                    and fn.attr in ("append", "extend")
                    and stmt.value.args
                ):
                    self.mutations.setdefault(fn.value.id, []).append(
                        (fn.attr, stmt.value.args[0])
                    )
            elif isinstance(stmt, ast.Try):
                self._visit(stmt.body)

    @classmethod
    def load(cls, dotted: str, src_root: Optional[str]) -> "Module":
        if not src_root:
            raise Unresolved(f"module {dotted} not readable (no --src-root)")
        base = os.path.join(src_root, *dotted.split("."))
        for p in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(p):
                if p not in cls.cache:
                    cls.cache[p] = Module(p, src_root)
                return cls.cache[p]
        raise Unresolved(f"module {dotted} not found under {src_root}")

    def lookup(self, name: str):
        if name in self._values:
            return self._values[name]
        if name in self.assigns:
            v = self.eval(self.assigns[name])
            for kind, arg in self.mutations.get(name, []):
                extra = self.eval(arg)
                if isinstance(v, tuple):
                    v = list(v)
                if kind == "append":
                    v.append(extra)
                else:
                    v.extend(list(extra))
            self._values[name] = v
            return v
        if name in self.classes:
            return ClassRef(self, self.classes[name])
        if name in self.imports:
            mod, orig = self.imports[name]
            return Module.load(mod, self.src_root).lookup(orig)
        raise Unresolved(f"name {name} not defined at module level of {os.path.basename(self.path)}")

    def eval(self, node: ast.expr, class_scope: Optional[ClassRef] = None, local: Optional[Dict[str, Any]] = None):
        ev = lambda n: self.eval(n, class_scope, local)  # noqa: E731
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            out: List[Any] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    out.extend(list(ev(e.value)))
                else:
                    out.append(ev(e))
            return tuple(out) if isinstance(node, ast.Tuple) else out
        if isinstance(node, ast.Dict):
            d = {}
            for k in node.keys:
                if k is None:
                    raise Unresolved("dict unpacking")
                d[ev(k)] = None  # only keys are ever needed
            return d
        if isinstance(node, ast.Name):
            if local is not None and node.id in local:
                return local[node.id]
            if class_scope is not None and node.id in class_scope.assigns:
                return class_scope.attr(node.id)
            return self.lookup(node.id)
        if isinstance(node, ast.Attribute):
            base = ev(node.value)
            if isinstance(base, ClassRef):
                return base.attr(node.attr)
            if isinstance(base, EnumMember) and node.attr in ("name", "value"):
                return getattr(base, node.attr)
            raise Unresolved(f"attribute .{node.attr} of {ast.unparse(node.value)}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = ev(node.left), ev(node.right)
            if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                return list(a) + list(b)
            if isinstance(a, str) and isinstance(b, str):
                return a + b
            raise Unresolved(f"cannot add {ast.unparse(node)}")
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name) and fn.id in ("list", "tuple", "sorted") and len(node.args) == 1:
                v = ev(node.args[0])
                if isinstance(v, ClassRef) and v.is_enum():
                    v = v.enum_members()
                v = list(v)
                return sorted(v) if fn.id == "sorted" else v
            if isinstance(fn, ast.Attribute) and not node.args:
                base = ev(fn.value)
                if fn.attr == "keys" and isinstance(base, dict):
                    return list(base.keys())
                if fn.attr in ("lower", "upper") and isinstance(base, str):
                    return getattr(base, fn.attr)()
            raise Unresolved(f"call {ast.unparse(node)}")
        if isinstance(node, ast.ListComp) and len(node.generators) == 1:
            g = node.generators[0]
            if g.ifs or not isinstance(g.target, ast.Name):
                raise Unresolved("comprehension too complex")
            it = ev(g.iter)
            if isinstance(it, ClassRef):
                if not it.is_enum():
                    raise Unresolved(f"iteration over non-enum class {it.node.name}")
                it = it.enum_members()
            out = []
            for item in it:
                loc = dict(local or {})
                loc[g.target.id] = item
                out.append(self.eval(node.elt, class_scope, loc))
            return out
        raise Unresolved(f"expression {ast.unparse(node)}")


# ---------------------------------------------------------------------------
# Flag model
# ---------------------------------------------------------------------------

SWITCH_ACTIONS = {"store_true", "store_false", "store_const", "count", "help", "version"}
# Custom argparse.Action classes of SGLang that take no value (nargs=0).
NO_VALUE_ACTIONS = {"DeprecatedAction", "DeprecatedStoreTrueAction", "DeprecatedStoreConstAction"}
# Custom actions that take a value like a plain store.
VALUE_ACTIONS = {"DeprecatedAliasStoreAction", "LoRAPathAction"}
# Custom type= functions of SGLang -> (KIND, note or None)
TYPE_FUNCS = {
    "int": ("int", None),
    "float": ("float", None),
    "str": ("str", None),
    "json.loads": ("json", None),
    "nullable_str": ("str", None),  # "" or "None" -> None
    "json_list_type": ("json", None),  # orjson.loads
    "human_readable_int": ("int", "accepts SI/IEC suffixes, e.g. 32k, 1M, 4Ki"),
    "parse_cuda_graph_config_arg": ("json", "a JSON object: phase -> settings"),
}


class Flag:
    def __init__(self, names: List[str], line: int):
        self.names = names
        self.line = line
        self.kind = "str"
        self.choices: Optional[List[Any]] = None
        self.nargs: Optional[str] = None
        self.notes: List[str] = []


def kind_of_type(expr_text: Optional[str], flag: Flag) -> str:
    if expr_text is None:
        return "str"
    if expr_text in TYPE_FUNCS:
        kind, note = TYPE_FUNCS[expr_text]
        if note:
            flag.notes.append(note)
        return kind
    flag.notes.append(f"custom type {expr_text}, taken as text")
    return "str"


def apply(flag: Flag, *, action: Optional[str], type_text: Optional[str], choices_node,
          choices_value=None, nargs: Optional[str], module: Module, local=None):
    action_name = action.split(".")[-1].strip("'\"") if action else None
    if action_name == "BooleanOptionalAction":
        flag.kind = "bool"
        return
    if action_name in SWITCH_ACTIONS or action_name in NO_VALUE_ACTIONS:
        flag.kind = "switch"
        if action_name in NO_VALUE_ACTIONS:
            flag.notes.append(f"deprecated ({action_name})")
        return
    if action_name in VALUE_ACTIONS and action_name.startswith("Deprecated"):
        flag.notes.append(f"deprecated alias ({action_name})")
    elif action_name and action_name not in VALUE_ACTIONS and action_name not in ("store", "append", "extend"):
        flag.notes.append(f"custom action {action_name}")
    flag.kind = kind_of_type(type_text, flag)
    if nargs is not None and str(nargs) not in ("None", "1"):
        flag.nargs = str(nargs)
    if choices_value is None and choices_node is not None:
        try:
            choices_value = module.eval(choices_node, local=local)
        except Unresolved as e:
            flag.notes.append(f"choices {ast.unparse(choices_node)} unresolved: {e}")
            flag.kind = "str"
            return
    if choices_value is not None:
        # set literals are evaluated as lists in source order
        flag.choices = list(choices_value)
        flag.kind = "choice"


def str_const(node) -> Optional[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def find_server_args(module: Module) -> ast.ClassDef:
    if "ServerArgs" not in module.classes:
        sys.exit("no class ServerArgs in " + module.path)
    return module.classes["ServerArgs"]


def explicit_flags(module: Module, fn: ast.FunctionDef) -> List[Flag]:
    flags = []
    local_nodes: Dict[str, ast.expr] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            local_nodes[node.targets[0].id] = node.value
    local: Dict[str, Any] = {}
    for k, v in local_nodes.items():
        try:
            local[k] = module.eval(v)
        except Unresolved:
            pass
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"):
            continue
        names = [str_const(a) for a in node.args]
        if not names or any(n is None for n in names):
            print(f"warning: line {node.lineno}: non-literal option string, skipped", file=sys.stderr)
            continue
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        flag = Flag(names, node.lineno)
        nargs = kw.get("nargs")
        nargs_val = None
        if nargs is not None:
            try:
                nargs_val = module.eval(nargs, local=local)
            except Unresolved:
                nargs_val = ast.unparse(nargs)
        action_val = None
        if "action" in kw:
            a = kw["action"]
            action_val = a.value if isinstance(a, ast.Constant) else ast.unparse(a)
        apply(
            flag,
            action=action_val,
            type_text=ast.unparse(kw["type"]) if "type" in kw else None,
            choices_node=kw.get("choices"),
            nargs=nargs_val,
            module=module,
            local=local,
        )
        flags.append(flag)
    return flags


def _annotated_parts(ann: ast.expr):
    """For A[T, meta...] / Annotated[T, meta...] return (T, [meta...]) else None."""
    if not isinstance(ann, ast.Subscript):
        return None
    head = ann.value
    hname = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", None)
    if hname not in ("A", "Annotated"):
        return None
    sl = ann.slice
    if isinstance(sl, ast.Tuple):
        return sl.elts[0], list(sl.elts[1:])
    return sl, []


def _type_name(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return ""


def _unwrap_optional(t):
    if isinstance(t, ast.Subscript) and _type_name(t.value) == "Optional":
        return t.slice, True
    if isinstance(t, ast.Subscript) and _type_name(t.value) == "Union":
        elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        rest = [e for e in elts if _type_name(e) not in ("None", "NoneType")]
        if len(rest) == 1:
            return rest[0], True
    if isinstance(t, ast.BinOp) and isinstance(t.op, ast.BitOr):
        elts = []

        def flat(n):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr):
                flat(n.left)
                flat(n.right)
            else:
                elts.append(n)

        flat(t)
        rest = [e for e in elts if _type_name(e) not in ("None", "NoneType")]
        if len(rest) == 1:
            return rest[0], True
    return t, False


def dataclass_flags(module: Module, cls: ast.ClassDef) -> List[Flag]:
    flags = []
    for stmt in cls.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        parts = _annotated_parts(stmt.annotation)
        if parts is None:
            continue
        raw_type, metas = parts
        arg_kw = None
        for m in metas:
            if isinstance(m, ast.Call) and _type_name(m.func) == "Arg":
                arg_kw = {k.arg: k.value for k in m.keywords if k.arg}
                break
            if isinstance(m, ast.Call):
                continue  # NS(...) and other markers
            arg_kw = {}  # a bare help string (str, f-string, concatenation)
            break
        if arg_kw is None:
            continue
        if "no_cli" in arg_kw and isinstance(arg_kw["no_cli"], ast.Constant) and arg_kw["no_cli"].value:
            continue
        field = stmt.target.id
        cli_name = str_const(arg_kw.get("cli_name")) if "cli_name" in arg_kw else None
        cli_name = cli_name or "--" + field.replace("_", "-")
        aliases = []
        if "aliases" in arg_kw:
            aliases = list(module.eval(arg_kw["aliases"]))
        flag = Flag([cli_name] + aliases, stmt.lineno)
        type_parser = ast.unparse(arg_kw["type_parser"]) if "type_parser" in arg_kw else None
        choices_node = arg_kw.get("choices")
        nargs = module.eval(arg_kw["nargs"]) if "nargs" in arg_kw else None

        if "action" in arg_kw:
            a = arg_kw["action"]
            action = a.value if isinstance(a, ast.Constant) else ast.unparse(a)
            extra = {}
            if "action_kwargs" in arg_kw and isinstance(arg_kw["action_kwargs"], ast.Dict):
                for k, v in zip(arg_kw["action_kwargs"].keys, arg_kw["action_kwargs"].values):
                    extra[module.eval(k)] = v
            t = extra.get("type")
            n = extra.get("nargs")
            apply(flag, action=action, type_text=ast.unparse(t) if t is not None else None,
                  choices_node=extra.get("choices"), nargs=module.eval(n) if n is not None else None,
                  module=module)
            flags.append(flag)
            continue

        inner, _opt = _unwrap_optional(raw_type)
        # Literal[...] -> choices (Arg.choices wins), type from the first value
        if isinstance(inner, ast.Subscript) and _type_name(inner.value) == "Literal":
            elts = inner.slice.elts if isinstance(inner.slice, ast.Tuple) else [inner.slice]
            lits = [module.eval(e) for e in elts]
            t0 = type(lits[0]).__name__ if lits else "str"
            tt = type_parser or (t0 if t0 in ("int", "float", "str") else "str")
            apply(flag, action=None, type_text=tt, choices_node=choices_node,
                  choices_value=None if choices_node is not None else lits, nargs=None, module=module)
            flags.append(flag)
            continue
        # List[X] -> nargs (default "+"), unless a type_parser handles the whole string
        if isinstance(inner, ast.Subscript) and _type_name(inner.value) in ("List", "list") and type_parser is None:
            elem = _type_name(inner.slice)
            tt = elem if elem in ("int", "float", "str") else "str"
            apply(flag, action=None, type_text=tt, choices_node=choices_node,
                  nargs=nargs or "+", module=module)
            flags.append(flag)
            continue
        if _type_name(inner) == "bool":
            flag.kind = "switch"
            flags.append(flag)
            continue
        tn = _type_name(inner)
        tt = type_parser or (tn if tn in ("int", "float", "str") else "str")
        apply(flag, action=None, type_text=tt, choices_node=choices_node, nargs=nargs, module=module)
        flags.append(flag)
    return flags


def fmt_choice(v: Any) -> str:
    if isinstance(v, bool):
        return str(v)
    return str(v)


def render(flags: List[Flag], version: str, source: str, extra_header: List[str]) -> str:
    out = [
        f"# SGLang {version}: the arguments of `python3 -m sglang.launch_server`",
        f"# source: {source}",
    ]
    out += [
        "# NAME KIND [choices=a,b,c] [aliases=-x,--y] [nargs=+|*|?]",
        "# KIND: switch (no value: store_true/store_false/store_const), bool (argparse.BooleanOptionalAction: no value, and --no-NAME is accepted too),",
        "#       int, float, str (any text), json (a JSON value), choice (one of choices=)",
    ]
    out += [f"# {h}" for h in extra_header]
    by_name: Dict[str, Flag] = {}
    for f in flags:
        if f.names[0] in by_name:
            print(f"warning: {f.names[0]} declared twice (lines {by_name[f.names[0]].line} and {f.line})", file=sys.stderr)
            continue
        by_name[f.names[0]] = f
    for name in sorted(by_name):
        f = by_name[name]
        parts = [name, f.kind]
        pre_notes = []
        if f.choices is not None:
            cs = [fmt_choice(c) for c in f.choices]
            for c in cs:
                if "," in c or " " in c or c == "":
                    pre_notes.append(f"# note: {name}: choice {c!r} contains a comma or space or is empty")
            parts.append("choices=" + ",".join(cs))
        if len(f.names) > 1:
            parts.append("aliases=" + ",".join(f.names[1:]))
        if f.nargs:
            parts.append("nargs=" + f.nargs)
        line = " ".join(parts)
        if f.notes:
            line += " # " + "; ".join(f.notes)
        out += pre_notes
        out.append(line)
    return "\n".join(out) + "\n", len(by_name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("server_args_py")
    ap.add_argument("version")
    ap.add_argument("--src-root", default=None, help="directory holding the sglang package (the repo's python/)")
    ap.add_argument("--source", default=None, help="text of the '# source:' header line")
    ap.add_argument("-o", "--output", default=None)
    a = ap.parse_args()

    src_root = a.src_root or os.path.normpath(os.path.join(os.path.dirname(a.server_args_py), "..", ".."))
    if not os.path.isdir(os.path.join(src_root, "sglang")):
        src_root = None
    module = Module(a.server_args_py, src_root)
    cls = find_server_args(module)
    fn = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "add_cli_args"), None)
    if fn is None:
        sys.exit("ServerArgs.add_cli_args not found")
    flags = []
    header = []
    uses_dataclass = any(
        isinstance(n, ast.Call) and _type_name(n.func) == "add_cli_args_from_dataclass" for n in ast.walk(fn)
    )
    if uses_dataclass:
        flags += dataclass_flags(module, cls)
        header.append("parser: ServerArgs dataclass fields A[T, Arg(...)] (add_cli_args_from_dataclass) + explicit add_argument calls in ServerArgs.add_cli_args")
    else:
        header.append("parser: explicit add_argument calls in ServerArgs.add_cli_args")
    flags += explicit_flags(module, fn)
    if Module.cache and src_root:
        base = os.path.dirname(os.path.abspath(src_root))
        read = sorted(os.path.relpath(os.path.abspath(p), base) for p in Module.cache)
        header.append("choices also resolved from: " + ", ".join(read))
    header.append("argparse also accepts -h/--help and unambiguous prefixes of long flags (allow_abbrev); not listed")
    header.append("choices lists are as written in the source; plugins may add values at run time (add_*_choices hooks)")
    text, n = render(flags, a.version, a.source or a.server_args_py, header)
    if a.output:
        os.makedirs(os.path.dirname(os.path.abspath(a.output)), exist_ok=True)
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(f"{n} flags", file=sys.stderr)


if __name__ == "__main__":
    main()
