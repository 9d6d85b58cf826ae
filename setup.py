"""The boardlab package's layout for setuptools, its extension modules built by CMake (scripts/build.sh); the metadata is in pyproject.toml."""

import os
import pathlib
import shutil
import subprocess
import tempfile

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
# The modules CMake builds (python/CMakeLists.txt); setuptools only places them.
MODULES = ["boardlab._boardlab", "boardlab._boardlab_nn"]


def cmake_build(build: pathlib.Path) -> dict[str, str]:
    """Builds the target boardlab_command in `build`; returns its CMake cache's entries (NAME -> value)."""
    cache = build / "CMakeCache.txt"
    if cache.is_file():
        # A configured folder keeps its own options (build type, Torch_DIR, MPI), which
        # scripts/build.sh would reset; ninja reconfigures it itself when a CMakeLists.txt changed.
        subprocess.run(["cmake", "--build", str(build), "-j", str(os.cpu_count() or 1), "--target",
                        "boardlab_command"], check=True)
    else:
        env = {**os.environ, "BOARDLAB_BUILD": str(build), "BOARDLAB_TARGET": "boardlab_command"}
        subprocess.run([str(ROOT / "scripts" / "build.sh")], env=env, check=True)
    entries = (line.split("=", 1) for line in cache.read_text().splitlines() if "=" in line and line[0] not in "#/")
    return {key.split(":")[0]: value for key, value in entries}


class CMakeBuildExt(build_ext):
    """Runs CMake instead of a compiler, then puts each module where setuptools expects it.

    In an editable install (and with --inplace) that is python/boardlab/, where CMake already
    put it; a wheel gets a copy."""

    def run(self):
        build = pathlib.Path(os.environ.get("BOARDLAB_BUILD") or ROOT / "build").resolve()
        cache = cmake_build(build)
        # CMake puts the modules into its source tree's python/boardlab (python/CMakeLists.txt): this
        # clone's, unless BOARDLAB_BUILD names another clone's build.
        built = pathlib.Path(cache["CMAKE_HOME_DIRECTORY"]) / "python" / "boardlab"
        for ext in self.extensions:
            if ext.name == "boardlab._boardlab_nn" and cache.get("BOARDLAB_TORCH") == "OFF":
                continue  # a build without LibTorch: the games and search alone
            target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
            source = built / target.name
            if not source.is_file():
                raise RuntimeError(f"no {source} after the build: CMake builds for Debian's /usr/bin/python3 "
                                   "(scripts/build.sh); install with it or a venv made from it")
            if target.exists() and target.samefile(source):
                continue
            # A new file renamed over the old one: a process that has the old one loaded keeps it.
            target.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as copy:
                shutil.copyfile(source, copy.name)
            os.chmod(copy.name, 0o755)
            os.replace(copy.name, target)


# Here, not in pyproject.toml's [tool.setuptools], which Debian's setuptools 66 warns is a beta.
setup(
    # python/ holds the package beside the bindings' C++ sources (module/, nn_module/, common/).
    package_dir={"": "python"},
    packages=find_packages("python", include=["boardlab", "boardlab.*"]),
    package_data={"boardlab": ["py.typed", "*.pyi", "serve/static/*.html", "serve/static/*.js", "serve/static/*.css"]},
    ext_modules=[Extension(name, sources=[]) for name in MODULES],
    cmdclass={"build_ext": CMakeBuildExt},
)
