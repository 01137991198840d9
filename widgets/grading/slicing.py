"""Which cells an exercise's check needs, and what of a student's cell the grader runs.

The grader runs a student's answer cells as *definitions* only (imports, functions, classes and
assignments of constants): a statement that would act at the top level of a cell (a call, an
assignment to an attribute, a loop) is what a cheat needs, and no exercise needs one. The lesson's
own cells come from the instructor's source, and only those whose names the check reads, directly
or through other cells (a backward slice by name)."""

import ast

from IPython.core.inputtransformer2 import TransformerManager

DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _is_constant(node):
    """Whether ``node`` is a literal made of constants (``3``, ``(2, 3)``, ``{'a': 1.0}``)."""
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False


def _is_definition(statement):
    if isinstance(statement, DEFINITIONS):
        return True
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return all(isinstance(t, ast.Name) for t in targets) and _is_constant(statement.value)
    return False


def definitions(source):
    """``source`` (a cell) with only its top-level definitions kept; '' if it does not parse."""
    kept = [statement for statement in _parse(source).body if _is_definition(statement)]
    return "\n\n".join(ast.unparse(statement) for statement in kept)


def names_bound(source):
    """The names ``source`` binds at its top level (an over-estimate: any store outside a
    function or class body counts)."""
    bound = set()
    for node in _top_level_nodes(_parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
    return bound


def names_read(source):
    """Every name ``source`` reads anywhere, function bodies included (an over-estimate)."""
    return {
        node.id
        for node in ast.walk(_parse(source))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def needed_cells(cells, names):
    """The indices of ``cells`` (sources, in notebook order) that bind what ``names`` need,
    followed backwards through what those cells read."""
    wanted, kept = set(names), []
    for index in range(len(cells) - 1, -1, -1):
        if names_bound(cells[index]) & wanted:
            kept.append(index)
            wanted |= names_read(cells[index])
    return sorted(kept)


def _parse(source):
    """The AST of a cell, its IPython syntax (magics, ``!`` commands) turned into Python first."""
    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except SyntaxError:
        return ast.Module(body=[], type_ignores=[])


def _top_level_nodes(tree):
    """The nodes of ``tree`` outside function and class bodies (the definitions themselves
    included, their bodies not)."""
    stack = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
