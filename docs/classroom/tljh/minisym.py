# The Littlest JupyterHub (one machine, up to ~100 students): copy this file into
# /opt/tljh/config/jupyterhub_config.d/ and run `sudo tljh-config reload` (see install.sh).
# c is JupyterHub's config object, defined by the loader.
CPU_PER_STUDENT = 1  # the same number as `tljh-config set limits.cpu` in install.sh
THREADS = str(CPU_PER_STUDENT)

c = get_config()  # noqa: F821

# Open the course's own front page, inside the folder nbgitpuller puts in each home.
c.Spawner.default_url = "/lab/tree/minisym/lessons/README.md"
c.Spawner.environment = {
    # One thread per CPU a student may use: more threads than that only fight over it.
    "NUMBA_NUM_THREADS": THREADS,
    "OMP_NUM_THREADS": THREADS,
    "OPENBLAS_NUM_THREADS": THREADS,
    "MKL_NUM_THREADS": THREADS,
    # The shared environment is read-only for students: each keeps compiled kernels at home.
    "NUMBA_CACHE_DIR": lambda spawner: f"/home/jupyter-{spawner.user.name}/.cache/minisym/numba",
}
