"""The two JupyterHub set-ups, run as far as a machine without Docker, Kubernetes or a hub
allows: repo2docker (pinned) reads binder/ for an image whose repository lives in /srv/repo,
binder/start starts jupyterhub-singleuser from there with an empty home, every option the
configs set exists in the pinned JupyterHub, spawners and authenticators, and
docs/classroom/tljh/install.sh runs end to end against stand-ins that record their calls.

The tools are installed by this test into private virtual environments under
.venv/hub-tools/ (the pins are docs/classroom/z2jh/*-requirements.txt); where they cannot be
made the tests skip and say why."""

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from test_classroom_configs import install_commands

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
CLASSROOM = ROOT / "docs" / "classroom"
TOOLS = ROOT / ".venv" / "hub-tools"
BUILD_PINS = CLASSROOM / "z2jh" / "build-requirements.txt"
HUB_PINS = CLASSROOM / "z2jh" / "hub-requirements.txt"
# What the image and TLJH's user environment add for the single-user server to start.
SINGLE_USER_EXTRAS = ["jupyterlab"]
# Where chart 4.4.0's jupyterhub_config.py puts each singleuser key (trait of KubeSpawner,
# or of Spawner for cmd and defaultUrl).
SINGLEUSER_TRAITS = {
    "image": "image",
    "cmd": "cmd",
    "defaultUrl": "default_url",
    "cpu.limit": "cpu_limit",
    "cpu.guarantee": "cpu_guarantee",
    "memory.limit": "mem_limit",
    "memory.guarantee": "mem_guarantee",
    "extraEnv": "environment",
    "lifecycleHooks": "lifecycle_hooks",
}
# What TLJH 2.0.0's configurer.py makes of the tljh-config keys install.sh sets.
TLJH_CONFIG_TRAITS = {
    "auth.type": ("JupyterHub", "authenticator_class"),
    "users.admin": ("Authenticator", "admin_users"),
    "users.allowed": ("Authenticator", "allowed_users"),
    "limits.cpu": ("Spawner", "cpu_limit"),
    "limits.memory": ("Spawner", "mem_limit"),
}
# The classes hub.config sections and TLJH config sections name.
CLASSES = {
    "JupyterHub": "jupyterhub.app:JupyterHub",
    "Spawner": "jupyterhub.spawner:Spawner",
    "Authenticator": "jupyterhub.auth:Authenticator",
    "KubeSpawner": "kubespawner:KubeSpawner",
    "GitHubOAuthenticator": "oauthenticator.github:GitHubOAuthenticator",
    "SystemdSpawner": "systemdspawner:SystemdSpawner",
    "NativeAuthenticator": "nativeauthenticator:NativeAuthenticator",
}
# Run in the pinned environment: each (section, trait, value) exists, is configurable and
# accepts the value; prints what does not.
CHECK_TRAITS = textwrap.dedent("""
    import copy, importlib, json, sys
    from traitlets import HasTraits, TraitError
    classes, settings = json.loads(sys.stdin.read())
    problems = []
    for section, name, value in settings:
        module, _, attribute = classes[section].partition(":")
        cls = getattr(importlib.import_module(module), attribute)
        trait = cls.class_traits().get(name)
        if trait is None or not trait.metadata.get("config"):
            problems.append(f"{section}.{name}: no such option")
            continue
        probe = type("Probe", (HasTraits,), {name: copy.deepcopy(trait)})()
        try:
            setattr(probe, name, value)
        except TraitError as error:
            problems.append(f"{section}.{name} = {value!r}: {error}")
    print(json.dumps(problems))
""")


def uv_python312():
    """uv's Python 3.12, installed by uv if it has none yet."""
    if not shutil.which("uv"):
        return Path("/nonexistent")
    found = subprocess.run(["uv", "python", "find", "3.12"], capture_output=True, text=True)
    if found.returncode != 0:
        subprocess.run(["uv", "python", "install", "3.12"], capture_output=True, timeout=900)
        found = subprocess.run(["uv", "python", "find", "3.12"], capture_output=True, text=True)
    return Path(found.stdout.strip() or "/nonexistent")


def python312():
    """A working Python 3.12 interpreter, or None."""

    def works(candidate):
        check = [str(candidate), "-c", "import sys; assert sys.version_info[:2] == (3, 12)"]
        return candidate.exists() and subprocess.run(check, capture_output=True).returncode == 0

    candidates = sorted(Path.home().glob(".pyenv/versions/3.12*/bin/python3.12"))
    candidates.append(Path(shutil.which("python3.12") or "/nonexistent"))
    found = next((c for c in candidates if works(c)), None)
    if found is None and works(uv_python312()):
        found = uv_python312()
    return found


def skip_loudly(reason):
    print(f"\nSKIPPED tests/test_hub_setups.py: {reason}", file=sys.stderr)
    pytest.skip(reason)


def private_venv(name, requirements, extras=()):
    """.venv/hub-tools/<name>, a Python 3.12 environment with the pinned requirements, made
    once (and again when the pins change)."""
    home = TOOLS / name
    stamp = hashlib.sha256(requirements.read_bytes() + " ".join(extras).encode()).hexdigest()
    TOOLS.mkdir(parents=True, exist_ok=True)
    # one maker at a time: two pytest-xdist workers making the same venv break each other
    with open(TOOLS / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (home / "stamp").exists() and (home / "stamp").read_text() == stamp:
            return home
        return _make_venv(home, stamp, requirements, extras)


def _make_venv(home, stamp, requirements, extras):
    """Make ``home`` anew with the pinned requirements and write its stamp."""
    python = python312()
    if python is None:
        skip_loudly(
            "no Python 3.12 (looked in ~/.pyenv/versions, on PATH, and with uv, which "
            "is not installed or could not install one)"
        )
    shutil.rmtree(home, ignore_errors=True)
    steps = [
        [str(python), "-m", "venv", str(home)],
        [
            str(home / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "-r",
            str(requirements),
            *extras,
        ],
    ]
    for step in steps:
        run = subprocess.run(step, capture_output=True, text=True, timeout=1800)
        if run.returncode != 0:
            skip_loudly(f"could not make {home}: {' '.join(step)}\n{run.stderr[-2000:]}")
    (home / "stamp").write_text(stamp)
    return home


@pytest.fixture(scope="module")
def repo2docker():
    return private_venv("repo2docker", BUILD_PINS)


@pytest.fixture(scope="module")
def hub():
    return private_venv("hub312", HUB_PINS, SINGLE_USER_EXTRAS)


def pinned(name):
    """The version HUB_PINS gives the package ``name``."""
    for line in HUB_PINS.read_text().splitlines():
        if line.startswith(name + "=="):
            return line.split("==", 1)[1].strip()
    raise LookupError(name)


def test_repo2docker_reads_binder_for_an_image_with_the_repository_in_srv_repo(repo2docker):
    arguments = [
        "--no-build",
        "--target-repo-dir",
        "/srv/repo",
        "--user-id",
        "1000",
        "--user-name",
        "jovyan",
        str(ROOT),
    ]
    run = subprocess.run(
        [str(repo2docker / "bin" / "repo2docker"), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    dockerfile = run.stdout
    assert "COPY --chown=1000:1000 src/binder/environment.yml ${REPO_DIR}/binder/" in dockerfile
    assert "RUN ./binder/postBuild" in dockerfile
    assert 'ENV R2D_ENTRYPOINT="${REPO_DIR}/binder/start"' in dockerfile
    # The build arguments docker would get: REPO_DIR outside the home folder.
    capture = textwrap.dedent("""
        import json, sys
        from repo2docker.__main__ import make_r2d
        from repo2docker.buildpacks.base import BuildPack
        render = BuildPack.render
        def recording(self, build_args=None):
            print("BUILD_ARGS " + json.dumps(build_args), file=sys.stderr)
            return render(self, build_args)
        BuildPack.render = recording
        make_r2d(sys.argv[1:]).start()  # what the repo2docker command runs
    """)
    run = subprocess.run(
        [str(repo2docker / "bin" / "python"), "-c", capture, *arguments],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    line = [x for x in run.stderr.splitlines() if x.startswith("BUILD_ARGS ")][0]
    assert json.loads(line.split(" ", 1)[1]) == {
        "NB_USER": "jovyan",
        "NB_UID": "1000",
        "REPO_DIR": "/srv/repo",
    }


def test_start_runs_jupyterhub_singleuser_from_srv_repo_with_an_empty_home(hub, tmp_path):
    repo = tmp_path / "srv" / "repo"
    shutil.copytree(
        ROOT,
        repo,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache"
        ),
    )
    home = tmp_path / "home" / "jovyan"  # the student's (new, empty) volume
    home.mkdir(parents=True)
    (tmp_path / "cgroup").mkdir()  # no CPU quota: one thread per core we may run on
    env = {
        "HOME": str(home),
        "PATH": f"{hub / 'bin'}:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "CGROUP_ROOT": str(tmp_path / "cgroup"),
    }

    def start(*command):
        run = subprocess.run(
            [str(repo / "binder" / "start"), *command],
            cwd=home,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        return run.stdout

    assert "Options" in start("jupyterhub-singleuser", "--help")
    # JupyterHub 5's single-user server is an extension of jupyter_server: loaded, it lists
    # its own options.
    options = start("jupyterhub-singleuser", "--help-all")
    assert "--JupyterHubSingleUser.hub_activity_url=" in options
    assert start("jupyterhub-singleuser", "--version").strip() == pinned("jupyterhub")
    shown = start(
        "python",
        "-c",
        "import os, sys; print(sys.version_info[:2]); "
        "print(os.environ['NUMBA_CPU_NAME'], os.environ['NUMBA_NUM_THREADS'])",
    )
    assert shown.split("\n")[:2] == ["(3, 12)", f"generic {len(os.sched_getaffinity(0))}"]


def dotted(mapping, key):
    """mapping["a"]["b"] for the key "a.b"."""
    for part in key.split("."):
        mapping = mapping[part]
    return mapping


def singleuser_keys(single):
    """The keys set under singleuser, cpu and memory by their parts."""
    split = {"cpu", "memory"}
    return (set(single) - split) | {f"{k}.{p}" for k in split & set(single) for p in single[k]}


def z2jh_settings():
    """(section, trait, value) of everything config.yaml and class.example.yaml set."""
    config = yaml.safe_load((CLASSROOM / "z2jh" / "config.yaml").read_text())
    values = yaml.safe_load((CLASSROOM / "z2jh" / "class.example.yaml").read_text())
    single = config["singleuser"]
    unmapped = singleuser_keys(single) - set(SINGLEUSER_TRAITS)
    assert not unmapped, f"singleuser keys this test does not know the traits of: {unmapped}"
    settings = []
    for key in sorted(singleuser_keys(single)):
        value = dotted(single, key)
        if key == "image":
            value = f"{value['name']}:{value['tag']}"
        section = "Spawner" if key in ("cmd", "defaultUrl") else "KubeSpawner"
        settings.append((section, SINGLEUSER_TRAITS[key], value))
    for source in (config, values):
        for section, options in source["hub"]["config"].items():
            settings += [(section, name, value) for name, value in options.items()]
    return settings


def tljh_value(word):
    """A tljh-config argument as TLJH stores it (config.parse_value), shell variables given a
    sample value."""
    word = {"$ADMIN": "teacher", "$name": "ada"}.get(word, word)
    return int(word) if word.isdigit() else word


def tljh_settings():
    """(section, trait, value) of what minisym.py sets, and of what install.sh's tljh-config
    calls become (TLJH 2.0.0's configurer.py)."""

    class Section(dict):
        def __getattr__(self, name):
            return self[name]

        def __setattr__(self, name, value):
            self[name] = value

    class Config(dict):
        def __getattr__(self, name):
            return self.setdefault(name, Section())

    config = Config()
    exec((CLASSROOM / "tljh" / "minisym.py").read_text(), {"get_config": lambda: config})
    settings = [(s, n, v) for s, options in config.items() for n, v in options.items()]
    for command in install_commands():
        if command[0] == "$TLJH_CONFIG" and command[1] in ("set", "add-item"):
            key, value = command[2], tljh_value(command[3])
            if key in TLJH_CONFIG_TRAITS:
                value = [value] if command[1] == "add-item" else value
                settings.append((*TLJH_CONFIG_TRAITS[key], value))
            else:
                assert key == "user_environment.default_app", f"unknown tljh-config key {key}"
    return settings


@pytest.mark.parametrize("settings", [z2jh_settings, tljh_settings])
def test_every_option_exists_in_the_pinned_releases(hub, settings):
    run = subprocess.run(
        [str(hub / "bin" / "python"), "-c", CHECK_TRAITS],
        input=json.dumps([CLASSES, settings()]),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == []


def test_the_authenticators_are_the_ones_named(hub):
    check = textwrap.dedent("""
        from importlib.metadata import entry_points
        from jupyterhub.auth import Authenticator
        github = [e for e in entry_points(group="jupyterhub.authenticators") if e.name == "github"]
        from nativeauthenticator import NativeAuthenticator
        print(github[0].load().__name__, issubclass(NativeAuthenticator, Authenticator))
    """)
    run = subprocess.run(
        [str(hub / "bin" / "python"), "-c", check], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["GitHubOAuthenticator", "True"]


STUB = """#!/usr/bin/env bash
printf '%s\\n' "$(basename "$0") $* | cwd=$PWD NUMBA_CPU_NAME=${NUMBA_CPU_NAME:-}" >> "$CALLS"
"""
# The user environment's python: records its calls; pip really resolves the course from
# pyproject.toml (a dry run, against the project's own environment).
PYTHON_STUB = (
    STUB
    + """if [ "$1 $2 $3" = "-m pip install" ]; then
    shift 3
    exec "$PROJECT_PYTHON" -m pip install --dry-run "$@"
fi
"""
)


def tljh_stand_in(prefix, hub):
    """A TLJH_INSTALL_PREFIX whose conda, python and tljh-config record their calls, and whose
    jupyterhub-singleuser is the pinned one."""
    (prefix / "user" / "bin").mkdir(parents=True)
    (prefix / "hub" / "bin").mkdir(parents=True)
    for path, text in [
        (prefix / "user" / "bin" / "conda", STUB),
        (prefix / "user" / "bin" / "python", PYTHON_STUB),
        (prefix / "hub" / "bin" / "tljh-config", STUB),
    ]:
        path.write_text(text)
        path.chmod(0o755)
    (prefix / "user" / "bin" / "jupyterhub-singleuser").symlink_to(
        hub / "bin" / "jupyterhub-singleuser"
    )


def test_install_sh_sets_up_the_course_and_the_class(hub, tmp_path):
    prefix = tmp_path / "tljh"
    tljh_stand_in(prefix, hub)
    calls = tmp_path / "calls.log"
    class_list = tmp_path / "class.txt"
    class_list.write_text("# 2026 autumn\nada\n  grace  \n\nalan # joined late\n")
    env = dict(
        os.environ, TLJH_INSTALL_PREFIX=str(prefix), CALLS=str(calls), PROJECT_PYTHON=sys.executable
    )
    run = subprocess.run(
        ["bash", str(CLASSROOM / "tljh" / "install.sh"), "teacher", str(class_list)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "Would install minisym-0.1.0" in run.stdout  # pip resolved the course and its deps
    assert pinned("jupyterhub") in run.stdout  # jupyterhub-singleuser --version ran
    lines = calls.read_text().splitlines()
    words = [line.split(" | ")[0] for line in lines]
    assert words == [
        "conda install --yes --channel conda-forge graphviz",
        "python -m pip install .",
        "python -m minisym.kernels.warmup",
        "tljh-config set auth.type nativeauthenticator.NativeAuthenticator",
        "tljh-config add-item users.admin teacher",
        "tljh-config add-item users.allowed ada",
        "tljh-config add-item users.allowed grace",
        "tljh-config add-item users.allowed alan",
        "tljh-config set user_environment.default_app jupyterlab",
        "tljh-config set limits.cpu 1",
        "tljh-config set limits.memory 2G",
        "tljh-config reload",
    ]
    assert lines[1].endswith(f"cwd={ROOT} NUMBA_CPU_NAME=")  # pip installs this repository
    assert lines[2].endswith("cwd=/ NUMBA_CPU_NAME=generic")  # the installed kernels, generic
    copied = prefix / "config" / "jupyterhub_config.d" / "minisym.py"
    assert copied.read_bytes() == (CLASSROOM / "tljh" / "minisym.py").read_bytes()
