"""Binder and the two JupyterHub set-ups agree with environment.yml and with each other: the
same packages, the project installed without extra dependencies, kernels compiled once, one
thread per CPU a student may use, a numba cache in each student's home, and an nbgitpuller
pull into the folder the hub opens. (The hubs themselves cannot run on one offline machine.)"""
import os
import re
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "binder"
CLASSROOM = ROOT / "docs" / "classroom"
THREAD_VARIABLES = {"NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS"}


def tljh_settings():
    """What the TLJH config file sets, run with a stand-in config object."""
    class Section:
        pass

    class Config:
        Spawner = Section()

    namespace = {"get_config": Config}
    exec((CLASSROOM / "tljh" / "minisym.py").read_text(), namespace)
    return namespace, Config.Spawner


def z2jh():
    return yaml.safe_load((CLASSROOM / "z2jh" / "config.yaml").read_text())


def test_binder_uses_the_projects_environment_file():
    assert (BINDER / "environment.yml").read_bytes() == (ROOT / "environment.yml").read_bytes()
    post_build = (BINDER / "postBuild").read_text()
    assert "pip install --no-deps" in post_build  # every dependency comes from environment.yml
    assert "python -m minisym.kernels.warmup" in post_build
    assert os.access(BINDER / "postBuild", os.X_OK) and os.access(BINDER / "start", os.X_OK)


def test_the_hubs_install_from_environment_yml_and_pull_with_nbgitpuller():
    install = (CLASSROOM / "tljh" / "install.sh").read_text()
    assert "--file environment.yml" in install and "pip install --no-deps ." in install
    assert "minisym.kernels.warmup" in install
    environment = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "nbgitpuller" in [re.split(r"[<>=\s]", d)[0] for d in environment["dependencies"]
                             if isinstance(d, str)]
    command = z2jh()["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"]
    assert command[0] == "gitpuller" and len(command) == 4
    folder = command[3]
    assert z2jh()["singleuser"]["defaultUrl"] == f"/lab/tree/{folder}/lessons/README.md"
    namespace, spawner = tljh_settings()
    assert spawner.default_url == z2jh()["singleuser"]["defaultUrl"]


def test_threads_follow_each_students_cpu_limit():
    namespace, spawner = tljh_settings()
    install = (CLASSROOM / "tljh" / "install.sh").read_text()
    limit = int(re.search(r"tljh-config set limits\.cpu (\d+)", install).group(1))
    assert namespace["CPU_PER_STUDENT"] == limit
    for name in THREAD_VARIABLES:
        assert spawner.environment[name] == str(limit)
    single = z2jh()["singleuser"]
    for name in THREAD_VARIABLES:
        assert single["extraEnv"][name] == str(single["cpu"]["limit"])


def test_each_student_has_a_numba_cache_at_home():
    _, spawner = tljh_settings()

    class User:
        name = "ada"

    class Spawner:
        user = User()

    tljh = spawner.environment["NUMBA_CACHE_DIR"](Spawner())
    assert tljh == "/home/jupyter-ada/.cache/minisym/numba"
    assert z2jh()["singleuser"]["extraEnv"]["NUMBA_CACHE_DIR"] == (
        "/home/jovyan/.cache/minisym/numba")


def test_binder_start_caps_threads_to_the_containers_cpu_share(tmp_path):
    (tmp_path / "cpu.max").write_text("150000 100000\n")  # 1.5 CPUs: round up to 2 threads
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    run = subprocess.run([str(BINDER / "start"), "env"], env=dict(env, CGROUP_ROOT=str(tmp_path)),
                         capture_output=True, text=True, check=True)
    shown = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    assert {shown[name] for name in THREAD_VARIABLES} == {"2"}
    (tmp_path / "cpu.max").write_text("max 100000\n")  # no quota: the cores we may run on
    run = subprocess.run([str(BINDER / "start"), "env"], env=dict(env, CGROUP_ROOT=str(tmp_path)),
                         capture_output=True, text=True, check=True)
    shown = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
    assert shown["NUMBA_NUM_THREADS"] == str(len(os.sched_getaffinity(0)))
