"""`make lab-zh` is `make lab` in Chinese: the same learner's configuration and settings, plus
JupyterLab's zh_CN locale (whose words the installed language pack brings), a Chinese start
page, and kernels started with the Chinese LANG / LANGUAGE. The browser sees the result in
tests/browser/test_chinese_lesson_page.py; these checks say which piece drifted."""

import json
import shlex
import subprocess
from pathlib import Path

from traitlets.config.loader import LazyConfigValue, PyFileConfigLoader

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
TRANSLATION = "@jupyterlab/translation-extension:plugin"


def settings(folder, name):
    return json.loads((BINDER / folder / name).read_text())


def lab_config(name):
    """A Jupyter config file's settings as plain dicts ({'LabApp': {'default_url': ...}})."""

    def plain(value):
        if isinstance(value, LazyConfigValue):  # `.update({...})` and the like
            return value.to_dict()
        return {k: plain(v) for k, v in value.items()} if isinstance(value, dict) else value

    return plain(PyFileConfigLoader(name, path=str(BINDER)).load_config())


def make_dry_run(target):
    """The `jupyter lab` command of ``target`` as make runs it, split into words."""
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", target],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return shlex.split(next(line for line in dry.stdout.splitlines() if "jupyter lab" in line))


def test_chinese_settings_are_the_learners_plus_the_chinese_locale():
    english, chinese = (
        settings("lab-settings", "overrides.json"),
        settings("lab-settings-zh", "overrides.json"),
    )
    assert chinese.pop(TRANSLATION) == {"locale": "zh_CN"}
    assert chinese == english, "binder/lab-settings-zh/overrides.json: copy the English change"
    assert settings("lab-settings-zh", "page_config.json") == settings(
        "lab-settings", "page_config.json"
    )


def test_chinese_config_is_the_learners_with_a_chinese_start_page():
    english, chinese = lab_config("learner_lab_config.py"), lab_config("learner_lab_config_zh.py")
    assert chinese["LabApp"]["app_settings_dir"] == str(BINDER / "lab-settings-zh")
    start = chinese["LabApp"]["default_url"]
    assert start == "/lab/tree/zh-CN/README.md"
    assert (REPO / "lessons" / start.removeprefix("/lab/tree/")).exists()
    for key in ("app_settings_dir", "default_url"):
        del chinese["LabApp"][key], english["LabApp"][key]
    assert chinese == english and english["ServerApp"], (chinese, english)


def test_make_lab_zh_starts_jupyter_lab_in_chinese_over_the_lessons():
    english, chinese = make_dry_run("lab"), make_dry_run("lab-zh")
    assert "LANG=zh_CN.UTF-8" in chinese and "LANGUAGE=zh_CN" in chinese, chinese
    assert "--config=binder/learner_lab_config_zh.py" in chinese
    assert chinese[-1] == english[-1] == "lessons/"  # the pictures and the English edition


def test_jupyterlab_has_the_chinese_language_pack():
    from jupyterlab_server.translation_utils import get_language_packs

    packs, message = get_language_packs()
    assert "zh_CN" in packs, (
        "JupyterLab has no zh_CN language pack: pip install "
        f"jupyterlab-language-pack-zh-CN (make venv does). {message}"
    )
