"""A submitted *lesson* notebook (what nbgitpuller gives a student), graded as the assignment."""

import ast
import copy

from nbgrader.preprocessors import NbGraderPreprocessor

from .apart import grading, source_notebook


def defined_functions(source):
    """The names of the functions a cell defines at its top level."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


class AdoptLessonNotebook(NbGraderPreprocessor):
    """If the submission has no nbgrader cells at all, it is the lesson notebook: rebuild the
    assignment from the instructor's source with each answer cell taken from the lesson cell
    that defines the same function, and warn."""

    def preprocess(self, nb, resources):
        if any(grading(cell) for cell in nb.cells):
            return nb, resources
        source = source_notebook(self.config, resources)
        by_name = {}
        for cell in nb.cells:
            if cell.cell_type == "code":
                for name in defined_functions(cell.source):
                    by_name.setdefault(name, cell.source)
        adopted = copy.deepcopy(source)
        found = []
        for cell in adopted.cells:
            if cell.cell_type == "code" and grading(cell).get("solution"):
                names = defined_functions(cell.source)
                answer = next((by_name[n] for n in names if n in by_name), None)
                cell.source = answer if answer is not None else _stub(cell.source)
                found += sorted(names & set(by_name))
        self.log.warning(
            "%s/%s is the lesson notebook, not the assignment: graded from the "
            "lesson cells that define %s",
            resources["nbgrader"]["student"],
            resources["nbgrader"]["notebook"],
            ", ".join(found) or "no exercise",
        )
        return adopted, resources


def _stub(source):
    """An answer cell the student never wrote: its function raising NotImplementedError."""
    header = source.split("### BEGIN SOLUTION")[0]
    return header + "raise NotImplementedError()\n"
