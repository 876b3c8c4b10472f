"""Package discovery for the layout of this repository (metadata lives in pyproject.toml).

The product is ``src/pbem``; the rules library in ``engine/`` installs as ``pbem_engine``
(a top-level ``engine`` would collide with any other distribution of that name); the
templates, packs and benchmark install inside ``pbem``. Every package below those folders is
found, never listed, so a new game module or pack cannot be left out of the wheel
(``tests/test_wheel.py`` checks the built wheel against the checkout).
"""

from setuptools import find_packages, setup

# installed name -> folder in the repository
ROOTS = {"pbem": "src/pbem", "pbem_engine": "engine", "pbem.templates": "templates",
         "pbem.packs": "packs", "pbem.bench": "bench"}


def found(name: str, folder: str) -> list[str]:
    return [name] + [f"{name}.{sub}" for sub in find_packages(folder)]


# "" -> src keeps the build's pbem.egg-info in src/, off the checkout's import path.
setup(packages=sorted({p for name, folder in ROOTS.items() for p in found(name, folder)}),
      package_dir={"": "src", **ROOTS})
