"""Package list for setuptools; all other metadata lives in pyproject.toml.

pyproject.toml maps the folder ``widgets/`` to the import name
``minisym_widgets``. ``[tool.setuptools.packages.find]`` only finds folders
by their own names, so the list is built here: every ``minisym*`` package
under the root, plus ``minisym_widgets`` and its subpackages under widgets/.
"""

from setuptools import find_packages, setup

packages = find_packages(where=".", include=["minisym", "minisym.*"])
packages += ["minisym_widgets"]
packages += ["minisym_widgets." + name for name in find_packages(where="widgets")]

setup(packages=packages)
