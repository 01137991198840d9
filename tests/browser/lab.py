"""A real JupyterLab on loopback and Debian's Chromium driven by Playwright, for tests that
look at the widgets as a learner does: open a notebook, run every cell, click, read the page.

The server gets a random free port and token, and temporary root, config, data, runtime,
settings and workspace folders; the browser cannot resolve any host but 127.0.0.1. Nothing is
downloaded (``playwright install`` is never run).
"""

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

import nbformat

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
LOCAL = "http://127.0.0.1:"
KERNEL_IDLE = "(ipykernel) | Idle"


def free_port():
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path, cells):
    """Write an output-free notebook of code cells (str) and markdown cells (('md', str))."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell(c[1])
        if isinstance(c, tuple)
        else nbformat.v4.new_code_cell(c)
        for c in cells
    ]
    nbformat.write(nb, path)


class Lab:
    """A running JupyterLab server: its URL, token and root folder."""

    def __init__(self, tmp, extra_args=(), quiet_news=True):
        """``extra_args`` go on jupyter lab's command line; ``quiet_news=False`` leaves the
        news prompt to whatever configuration ``extra_args`` bring (as ``make lab`` does)."""
        self.root, self.home = tmp / "root", tmp / "home"
        self.root.mkdir()
        self.extra_args = list(extra_args)
        for sub in ("config", "data", "runtime", "ipython", "workspaces", "settings"):
            (self.home / sub).mkdir(parents=True)
        if quiet_news:  # without this a "get notified about Jupyter news?" toast covers the page
            settings = self.home / "settings" / "@jupyterlab" / "apputils-extension"
            settings.mkdir(parents=True)
            (settings / "notification.jupyterlab-settings").write_text(
                json.dumps({"fetchNews": "false", "checkForUpdates": False})
            )
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / "lab.log"
        self.proc = None

    def start(self, timeout=90):
        """Start the server and wait until it answers."""
        env = dict(
            os.environ,
            JUPYTER_CONFIG_DIR=str(self.home / "config"),
            JUPYTER_DATA_DIR=str(self.home / "data"),
            JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
            IPYTHONDIR=str(self.home / "ipython"),
            JUPYTER_PLATFORM_DIRS="1",
        )
        cmd = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            f"--LabApp.user_settings_dir={self.home / 'settings'}",
            f"--LabApp.workspaces_dir={self.home / 'workspaces'}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class="
            "jupyterlab.handlers.announcements.NeverCheckForUpdate",
            "--ServerApp.terminals_enabled=False",
            "--LabApp.expose_app_in_browser=True",
            *self.extra_args,
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            cmd, env=env, stdout=self._log, stderr=subprocess.STDOUT, cwd=self.root
        )
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"jupyter lab exited ({self.proc.returncode}):\n" + self.log_path.read_text()
                )
            try:
                with urllib.request.urlopen(
                    f"{self.url}/api/status?token={self.token}", timeout=2
                ) as answer:
                    if answer.status == 200:
                        return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("jupyter lab not ready in time:\n" + self.log_path.read_text())
            time.sleep(0.2)

    def stop(self):
        """SIGTERM: the server shuts its kernels down, then exits."""
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._log.close()

    def notebook_url(self, name):
        """A fresh workspace (``?reset``), so no tab of an earlier page comes back."""
        return (
            f"{self.url}/lab/workspaces/{uuid.uuid4().hex[:8]}/tree/{name}?reset&token={self.token}"
        )

    def api(self, method, path):
        request = urllib.request.Request(
            f"{self.url}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            body = answer.read()
            return json.loads(body) if body else None

    def shutdown_sessions(self):
        """Stop every kernel (each test opens its own notebook, so its own kernel)."""
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")


def watch_page(page):
    """Collect page errors, console errors and failed requests of 127.0.0.1 on ``page``."""
    page.errors, page.external = [], []
    page.on("pageerror", lambda e: page.errors.append(f"pageerror: {e}"))
    page.on(
        "console",
        lambda m: (
            page.errors.append(f"console.error: {m.text}")
            if m.type == "error" and m.location.get("url", "").startswith(LOCAL)
            else None
        ),
    )
    page.on(
        "request",
        lambda r: (
            None if r.url.startswith((LOCAL, "data:", "blob:")) else page.external.append(r.url)
        ),
    )
    # a request the page itself cancelled (JupyterLab swaps a markdown image's relative src
    # for the file's URL while the first request is on its way) is not an error
    page.on(
        "requestfailed",
        lambda r: (
            page.errors.append(f"requestfailed: {r.url}")
            if r.url.startswith(LOCAL) and "ERR_ABORTED" not in (r.failure or "")
            else None
        ),
    )


def open_notebook(page, lab, name):
    """Open ``name`` and wait until its kernel is really idle (not the toolbar's early 'idle',
    which shows before any kernel exists: a Run All sent then is dropped)."""
    from playwright.sync_api import expect

    page.goto(lab.notebook_url(name))
    panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    expect(panel.locator(".jp-Cell").first).to_be_visible(timeout=60_000)
    expect(page.locator("#jp-main-statusbar")).to_contain_text(KERNEL_IDLE, timeout=60_000)
    return panel


def run_all(page, panel, timeout=300):
    """Run All Cells and wait until every prompt shows an execution count."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    deadline = time.monotonic() + timeout
    prompts = []
    while time.monotonic() < deadline:
        prompts = [
            p.strip()
            for p in panel.locator(".jp-CodeCell .jp-InputArea-prompt").all_text_contents()
        ]
        if prompts and all(re.fullmatch(r"\[\d+\]:", p) for p in prompts):
            return prompts
        time.sleep(0.2)
    raise AssertionError(f"cells not all executed in {timeout}s: {prompts}")


def cell_output(panel, index):
    """The locator of code cell ``index``'s output area."""
    return panel.locator(".jp-CodeCell").nth(index).locator(".jp-OutputArea-output")
