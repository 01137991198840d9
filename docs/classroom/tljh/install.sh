#!/usr/bin/env bash
# Set up the course on a machine running The Littlest JupyterHub 2.0.0 (https://tljh.jupyter.org),
# from a clone of the course repository:
#   sudo bash docs/classroom/tljh/install.sh <admin> <class-list.txt>
# <admin> is the instructor's hub user name; the class list holds one student user name a line
# (blank lines and text after # are ignored). TLJH_INSTALL_PREFIX (default /opt/tljh) is where
# TLJH lives.
set -euo pipefail

usage() {
    echo "usage: sudo bash docs/classroom/tljh/install.sh <admin> <class-list.txt>" >&2
    exit 2
}

check_name() {
    # A letter first: tljh-config would store an all-digit name as a number.
    if ! [[ "$1" =~ ^[a-z][a-z0-9._-]*$ ]]; then
        echo "install.sh: '$1' $2 is not a valid user name (a lower case letter, then lower" \
             "case letters, digits, . _ -)" >&2
        exit 1
    fi
}

student_names() {
    # The class list's user names, one a line.
    local line name
    while IFS= read -r line || [ -n "$line" ]; do
        name="${line%%#*}"
        name="$(printf '%s' "$name" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"
        [ -z "$name" ] && continue
        check_name "$name" "in $1"
        echo "$name"
    done < "$1"
}

[ "$#" -eq 2 ] || usage
ADMIN="$1"
check_name "$ADMIN" "(the admin)"
CLASS_LIST="$(realpath "$2")"
[ -r "$CLASS_LIST" ] || { echo "install.sh: cannot read the class list $2" >&2; exit 1; }
STUDENTS="$(student_names "$CLASS_LIST")"
[ -n "$STUDENTS" ] || { echo "install.sh: the class list $2 names no student" >&2; exit 1; }

PREFIX="${TLJH_INSTALL_PREFIX:-/opt/tljh}"
USER_ENV="$PREFIX/user"
TLJH_CONFIG="$PREFIX/hub/bin/tljh-config"  # what /usr/bin/tljh-config links to
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."

# The students' environment is TLJH's own (Python 3.12, jupyterhub-singleuser, JupyterLab):
# add the course and its dependencies from pyproject.toml with pip, and from conda only the
# Graphviz programs, a system dependency pip cannot install. (environment.yml is Binder's: its
# python=3.11 would downgrade this environment and remove TLJH's packages.)
"$USER_ENV/bin/conda" install --yes --channel conda-forge graphviz
"$USER_ENV/bin/python" -m pip install .
# The hub starts every student's server with this command: it must still run.
"$USER_ENV/bin/jupyterhub-singleuser" --version
# Compile the kernels once, into the shared install, for any processor (students' servers run
# with the same NUMBA_CPU_NAME, set in minisym.py). From / so the installed package is warmed.
(cd / && NUMBA_CPU_NAME=generic "$USER_ENV/bin/python" -m minisym.kernels.warmup)

# Who may log in: the admin and the class list, nobody else. Each signs up once at /hub/signup
# under their listed name, and a listed name needs no approval: whoever signs up first owns it.
# So give the class the hub's address in the room, check at /hub/authorize that every name was
# taken by its student, then close sign-up (docs/classroom.md):
#   tljh-config set auth.NativeAuthenticator.enable_signup false && tljh-config reload
"$TLJH_CONFIG" set auth.type nativeauthenticator.NativeAuthenticator
"$TLJH_CONFIG" add-item users.admin "$ADMIN"
for name in $STUDENTS; do
    "$TLJH_CONFIG" add-item users.allowed "$name"
done

"$TLJH_CONFIG" set user_environment.default_app jupyterlab
"$TLJH_CONFIG" set limits.cpu 1        # = CPU_PER_STUDENT in minisym.py
"$TLJH_CONFIG" set limits.memory 2G
install -D -m 644 docs/classroom/tljh/minisym.py "$PREFIX/config/jupyterhub_config.d/minisym.py"
"$TLJH_CONFIG" reload
