"""Binder and the two JupyterHub set-ups agree with the project and with each other: Binder's
packages are environment.yml's, TLJH adds the course to its own environment with pip, kernels
are compiled once for a generic CPU and run with it, one thread per CPU a student may use, an
nbgitpuller pull into the folder the hub opens, logins limited to the class, and guarantees that
follow the sizing rule of docs/classroom.md. (tests/test_hub_setups.py runs the tools
themselves; the hubs cannot run on one offline machine.)"""

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
CLASSROOM = ROOT / "docs" / "classroom"
INSTALL_SH = CLASSROOM / "tljh" / "install.sh"
THREAD_VARIABLES = {
    "NUMBA_NUM_THREADS",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
}
GIB = 1024**3
# JupyterHub's ByteSpecification and systemd both read K, M, G, T as powers of 1024.
UNITS = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
SIZING_LINE = re.compile(r"<!--\s*sizing:\s*(.*?)\s*-->")


def tljh_settings():
    """What the TLJH config file sets, run with a stand-in config object."""

    class Section:
        pass

    class Config:
        def __getattr__(self, name):
            section = Section()
            setattr(self, name, section)
            return section

    config = Config()
    namespace = {"get_config": lambda: config}
    exec((CLASSROOM / "tljh" / "minisym.py").read_text(), namespace)
    return namespace, config


def z2jh():
    return yaml.safe_load((CLASSROOM / "z2jh" / "config.yaml").read_text())


def class_values():
    return yaml.safe_load((CLASSROOM / "z2jh" / "class.example.yaml").read_text())


def install_commands():
    """The commands of install.sh, each as a list of words (continuation lines joined)."""
    text = INSTALL_SH.read_text().replace("\\\n", " ")
    commands = []
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            commands.append(shlex.split(line, comments=True))
    return commands


def bytes_of(size):
    """The number of bytes of a size such as "666M" or "2G"."""
    number, unit = re.fullmatch(r"([\d.]+)([KMGT]?)", str(size)).groups()
    return float(number) * UNITS.get(unit, 1)


def sizing_rule():
    """The machine-readable sizing line of docs/classroom.md, as numbers."""
    found = SIZING_LINE.search((ROOT / "docs" / "classroom.md").read_text())
    assert found, "docs/classroom.md has no <!-- sizing: ... --> line"
    return {
        key: float(value) for key, value in (pair.split("=", 1) for pair in found.group(1).split())
    }


def test_binder_uses_the_projects_environment_file():
    assert (BINDER / "environment.yml").read_bytes() == (ROOT / "environment.yml").read_bytes()
    post_build = (BINDER / "postBuild").read_text()
    assert "pip install --no-deps" in post_build  # every dependency comes from environment.yml
    assert "python -m minisym.kernels.warmup" in post_build
    assert os.access(BINDER / "postBuild", os.X_OK) and os.access(BINDER / "start", os.X_OK)


def test_tljh_adds_the_course_with_pip_and_only_graphviz_with_conda():
    commands = install_commands()
    conda = [c for c in commands if c and c[0].endswith("/bin/conda")]
    assert conda, "install.sh installs Graphviz with conda"
    for command in conda:
        assert command[1] == "install"
        assert [
            word for word in command[2:] if not word.startswith("-") and word != "conda-forge"
        ] == ["graphviz"]
    assert "environment.yml" not in " ".join(" ".join(c) for c in commands)
    pip = [c for c in commands if c[1:4] == ["-m", "pip", "install"]]
    assert [c[4:] for c in pip] == [["."]]  # the course with its dependencies, from pyproject
    assert any(
        c[0].endswith("/bin/jupyterhub-singleuser") and c[1:] == ["--version"] for c in commands
    )


def test_the_hubs_open_the_folder_nbgitpuller_pulls_into():
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "nbgitpuller" in [
        re.split(r"[<>=\s]", d)[0] for d in environment["dependencies"] if isinstance(d, str)
    ]
    command = z2jh()["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"]
    assert command[0] == "gitpuller" and len(command) == 4
    assert command[2] == "student", "students pull the branch without solutions (make student)"
    home = z2jh()["hub"]["config"]["KubeSpawner"]["working_dir"]
    assert home == "/home/jovyan"
    target = Path(command[3])
    assert target.parent == Path(home), "gitpuller must pull into the student's home"
    assert z2jh()["singleuser"]["defaultUrl"] == f"/lab/tree/{target.name}/lessons/README.md"
    _, config = tljh_settings()
    assert config.Spawner.default_url == z2jh()["singleuser"]["defaultUrl"]


def test_z2jh_starts_the_server_from_outside_the_home_volume():
    single = z2jh()["singleuser"]
    assert single["cmd"] == "jupyterhub-singleuser"
    header = (CLASSROOM / "z2jh" / "config.yaml").read_text()
    build = re.search(r"repo2docker .*--target-repo-dir (\S+)", header)
    assert build, "config.yaml says how the image is built"
    repo_dir = Path(build.group(1))
    home = Path(z2jh()["hub"]["config"]["KubeSpawner"]["working_dir"])
    assert home not in repo_dir.parents and repo_dir != home


def test_threads_follow_each_students_cpu_limit():
    namespace, config = tljh_settings()
    limit = [c for c in install_commands() if c[1:3] == ["set", "limits.cpu"]][0][3]
    assert namespace["CPU_PER_STUDENT"] == int(limit)
    for name in THREAD_VARIABLES:
        assert config.Spawner.environment[name] == limit
    single = z2jh()["singleuser"]
    for name in THREAD_VARIABLES:
        assert single["extraEnv"][name] == str(single["cpu"]["limit"])


def test_kernels_are_compiled_and_run_for_a_generic_cpu():
    warm = re.compile(r'\(cd / && NUMBA_CPU_NAME=generic \S*python"? -m minisym\.kernels\.warmup\)')
    assert warm.search((BINDER / "postBuild").read_text())
    assert warm.search(INSTALL_SH.read_text())
    assert z2jh()["singleuser"]["extraEnv"]["NUMBA_CPU_NAME"] == "generic"
    _, config = tljh_settings()
    assert config.Spawner.environment["NUMBA_CPU_NAME"] == "generic"


def test_binder_start_runs_with_the_generic_cpu_unless_told_otherwise():
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CPU_NAME"}
    shown = subprocess.run(
        [str(BINDER / "start"), "printenv", "NUMBA_CPU_NAME"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.strip() == "generic"
    shown = subprocess.run(
        [str(BINDER / "start"), "printenv", "NUMBA_CPU_NAME"],
        env=dict(env, NUMBA_CPU_NAME="skylake"),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert shown.strip() == "skylake"


def test_no_hub_sets_a_per_student_numba_cache():
    # minisym seeds each user's own cache from the shared install by itself.
    assert "NUMBA_CACHE_DIR" not in z2jh()["singleuser"]["extraEnv"]
    _, config = tljh_settings()
    assert "NUMBA_CACHE_DIR" not in config.Spawner.environment


def test_only_the_class_may_log_in():
    hub = z2jh()["hub"]["config"]
    assert "admin_access" not in hub.get("JupyterHub", {})  # a no-op since JupyterHub 2
    assert hub["JupyterHub"]["authenticator_class"] == "github"
    assert "GitHubOAuthenticator" not in hub  # secrets and the class list live in class.yaml
    github = class_values()["hub"]["config"]["GitHubOAuthenticator"]
    assert {
        "client_id",
        "client_secret",
        "oauth_callback_url",
        "admin_users",
        "allowed_users",
    } <= set(github)
    assert github["admin_users"] and github["allowed_users"]
    commands = install_commands()
    assert ["set", "auth.type", "nativeauthenticator.NativeAuthenticator"] in [
        c[1:] for c in commands
    ]
    assert ["add-item", "users.admin", "$ADMIN"] in [c[1:] for c in commands]
    assert ["add-item", "users.allowed", "$name"] in [c[1:] for c in commands]


def test_guarantees_follow_the_guides_sizing_rule():
    rule = sizing_rule()
    cpu_share = 1 / rule["students_per_core"]
    memory = (rule["gib_per_kernel"] + rule["gib_per_server"]) * GIB
    single = z2jh()["singleuser"]
    assert cpu_share <= single["cpu"]["guarantee"] < cpu_share + 0.001
    assert single["cpu"]["guarantee"] < single["cpu"]["limit"]
    mib = UNITS["M"]
    assert abs(bytes_of(single["memory"]["guarantee"]) - memory) < mib
    assert bytes_of(single["memory"]["guarantee"]) < bytes_of(single["memory"]["limit"])
    _, config = tljh_settings()
    tljh_memory = config.SystemdSpawner.unit_extra_properties["MemoryLow"]
    assert abs(bytes_of(tljh_memory) - memory) < mib
    limit = [c for c in install_commands() if c[1:3] == ["set", "limits.memory"]][0][3]
    assert bytes_of(limit) == bytes_of(single["memory"]["limit"])


@pytest.mark.parametrize(
    "arguments, message",
    [
        ([], "usage: sudo bash docs/classroom/tljh/install.sh <admin> <class-list.txt>"),
        (["teacher", "missing.txt"], "cannot read the class list"),
        (["teacher", "{bad}"], "'Ada Lovelace' in"),
        (["teacher", "{digits}"], "'2024' in"),
        (["Teacher One", "{digits}"], "'Teacher One' (the admin) is not a valid user name"),
        (["teacher", "{empty}"], "names no student"),
    ],
)
def test_install_sh_refuses_bad_arguments_before_changing_anything(tmp_path, arguments, message):
    (tmp_path / "bad.txt").write_text("ada\nAda Lovelace # two words, capitals\n")
    (tmp_path / "digits.txt").write_text("ada\n2024\n")
    (tmp_path / "empty.txt").write_text("# nobody yet\n\n")
    arguments = [
        a.format(
            bad=tmp_path / "bad.txt", digits=tmp_path / "digits.txt", empty=tmp_path / "empty.txt"
        )
        for a in arguments
    ]
    run = subprocess.run(
        ["bash", str(INSTALL_SH), *arguments],
        cwd=tmp_path,
        env=dict(os.environ, TLJH_INSTALL_PREFIX=str(tmp_path / "tljh")),
        capture_output=True,
        text=True,
    )
    assert run.returncode != 0
    assert message in run.stderr
    assert not (tmp_path / "tljh").exists()
