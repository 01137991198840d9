"""Keep the Chinese notebooks (lessons/zh-CN/) in step with the English lessons.

    python tests/editions.py sync [NN_name.ipynb ...]      # update the Chinese notebooks' cells
    python tests/editions.py execute [NN_name.ipynb ...]   # run them in Chinese, store outputs

``sync`` rebuilds each lessons/zh-CN/NN_*.ipynb from its English lessons/NN_*.ipynb: the same
cells in the same order with the same ids; code cells copied from the English (their stored
outputs kept while the source is unchanged); a markdown cell keeps its Chinese text while its
``metadata.zh.en_sha256`` is the hash of the current English cell, otherwise it becomes the
English text marked ``metadata.zh = {"en_sha256": ..., "todo": true}`` (to translate, then
delete ``todo``). It prints the cells left to translate. ``execute`` runs each Chinese notebook
as tests/notebooks.py runs the English ones, with the kernel in Chinese (``LANG``/``LANGUAGE``).
Without names, both act on every lesson. tests/test_editions.py fails when the editions drift.
"""

import copy
import hashlib
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
ZH_FOLDER = "zh-CN"
CHINESE_ENV = {"LANG": "zh_CN.UTF-8", "LANGUAGE": "zh_CN"}


def en_sha256(source):
    """Hash of an English cell's source text (the joined string, UTF-8): 64 hex digits."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def lesson_pairs(lessons=LESSONS, names=()):
    """[(english path, chinese path)] of lessons/NN_*.ipynb, or of the given file names."""
    english = sorted(lessons.glob("[0-9][0-9]_*.ipynb"))
    if names:
        wanted = {Path(name).name for name in names}
        english = [path for path in english if path.name in wanted]
        missing = wanted - {path.name for path in english}
        if missing:
            raise SystemExit(f"no English lesson named {', '.join(sorted(missing))} in {lessons}")
    return [(path, lessons / ZH_FOLDER / path.name) for path in english]


def is_current(zh_cell, en_cell):
    """True if a Chinese markdown cell is a translation of the English cell as it is now."""
    zh = zh_cell.metadata.get("zh", {})
    return zh.get("en_sha256") == en_sha256(en_cell.source)


def to_translate(en_cell):
    """The English markdown cell, marked as a cell to translate."""
    cell = copy.deepcopy(en_cell)
    cell.metadata["zh"] = {"en_sha256": en_sha256(en_cell.source), "todo": True}
    return cell


def synced_cell(en_cell, zh_cell):
    """The Chinese edition's cell for ``en_cell``, given the Chinese cell of that id (or None)."""
    if en_cell.cell_type == "markdown":
        if zh_cell is not None and zh_cell.cell_type == "markdown" and is_current(zh_cell, en_cell):
            kept = copy.deepcopy(zh_cell)
            kept.metadata = {**copy.deepcopy(en_cell.metadata), "zh": zh_cell.metadata["zh"]}
            return kept
        return to_translate(en_cell)
    cell = copy.deepcopy(en_cell)
    if (
        en_cell.cell_type == "code"
        and zh_cell is not None
        and zh_cell.cell_type == "code"
        and zh_cell.source == en_cell.source
    ):
        cell.outputs = copy.deepcopy(zh_cell.outputs)  # the Chinese run's outputs stay valid
        cell.execution_count = zh_cell.execution_count
    return cell


def sync(en_path, zh_path):
    """Rebuild the Chinese notebook from the English one; return its cells to translate."""
    english = nbformat.read(en_path, as_version=4)
    chinese = nbformat.read(zh_path, as_version=4) if zh_path.exists() else None
    by_id = {cell.id: cell for cell in chinese.cells} if chinese else {}
    result = copy.deepcopy(english)
    result.cells = [synced_cell(cell, by_id.get(cell.id)) for cell in english.cells]
    if chinese is None or result != chinese:
        zh_path.parent.mkdir(exist_ok=True)
        nbformat.write(result, zh_path)
    return [
        (index, cell)
        for index, cell in enumerate(result.cells)
        if cell.cell_type == "markdown" and cell.metadata["zh"].get("todo")
    ]


def first_line(source):
    return next((line for line in source.splitlines() if line.strip()), "")[:70]


def sync_all(names=()):
    total = 0
    for en_path, zh_path in lesson_pairs(names=names):
        todo = sync(en_path, zh_path)
        total += len(todo)
        where = zh_path.relative_to(ROOT)
        print(f"{where}: {len(todo) or 'no'} markdown cell(s) to translate")
        for index, cell in todo:
            print(f"  cell {index} (id {cell.id}): {first_line(cell.source)}")
    if total:
        print(
            f"Translate these {total} cell(s) and delete their metadata.zh.todo; "
            "keep metadata.zh.en_sha256."
        )


def execute_all(names=()):
    sys.path.insert(0, str(Path(__file__).parent))
    from notebooks import execute

    for _, zh_path in lesson_pairs(names=names):
        where = zh_path.relative_to(ROOT)
        if not zh_path.exists():
            print(f"{where}: missing; run `python tests/editions.py sync` first")
            continue
        _, seconds = execute(zh_path, env=CHINESE_ENV)
        print(f"{where}: executed in Chinese in {seconds:.1f} s, outputs stored")


COMMANDS = {"sync": sync_all, "execute": execute_all}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        raise SystemExit("usage: python tests/editions.py sync|execute [NN_name.ipynb ...]")
    COMMANDS[argv[0]](argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
