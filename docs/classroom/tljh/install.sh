#!/usr/bin/env bash
# Set up the course on a machine running The Littlest JupyterHub (https://tljh.jupyter.org),
# from a clone of the course repository: `sudo bash docs/classroom/tljh/install.sh`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
USER_ENV=/opt/tljh/user

# The students' environment: exactly the packages of environment.yml, then the course itself.
"$USER_ENV/bin/conda" env update --name base --file environment.yml
"$USER_ENV/bin/python" -m pip install --no-deps .
# Compile the kernels once, into the shared install (students then load them, not compile).
"$USER_ENV/bin/python" -m minisym.kernels.warmup

tljh-config set user_environment.default_app jupyterlab
tljh-config set limits.cpu 1        # = CPU_PER_STUDENT in minisym.py
tljh-config set limits.memory 2G
cp docs/classroom/tljh/minisym.py /opt/tljh/config/jupyterhub_config.d/minisym.py
tljh-config reload
