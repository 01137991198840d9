# The Littlest JupyterHub 2.0.0 (one machine, up to ~100 students; JupyterHub 5, SystemdSpawner
# 1.0): install.sh copies this file into /opt/tljh/config/jupyterhub_config.d/ and runs
# `tljh-config reload`. c is JupyterHub's config object, defined by the loader.
CPU_PER_STUDENT = 1  # the same number as `tljh-config set limits.cpu` in install.sh
THREADS = str(CPU_PER_STUDENT)
# Sizing rule of docs/classroom.md: 0.6 GiB per kernel + 0.15 GiB per JupyterLab server
# = 0.75 GiB = 768 MiB (systemd's M is MiB). The CPU is shared fairly by systemd's equal
# CPUWeight, so 12 students per core need no setting.
MEMORY_GUARANTEE = "768M"

c = get_config()  # noqa: F821

# Open the course's own front page, inside the folder nbgitpuller puts in each home.
c.Spawner.default_url = "/lab/tree/minisym/lessons/README.md"
c.Spawner.environment = {
    # One thread per CPU a student may use: more threads than that only fight over it.
    "NUMBA_NUM_THREADS": THREADS,
    "OMP_NUM_THREADS": THREADS,
    "OPENBLAS_NUM_THREADS": THREADS,
    "MKL_NUM_THREADS": THREADS,
    # The CPU name install.sh compiled the shared kernels for: numba keys its cache by
    # processor, and minisym copies these kernels into each student's own cache.
    "NUMBA_CPU_NAME": "generic",
}
# The memory systemd keeps for each student's server when the machine runs short (limits.memory
# is the most it may take).
c.SystemdSpawner.unit_extra_properties = {"MemoryLow": MEMORY_GUARANTEE}

# Graded work: passwords that are not trivially guessed, and a pause after failed logins.
c.NativeAuthenticator.check_common_password = True
c.NativeAuthenticator.minimum_password_length = 10
c.NativeAuthenticator.allowed_failed_logins = 5
c.NativeAuthenticator.seconds_before_next_try = 300
