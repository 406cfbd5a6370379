"""Build the extension module dtb._dtb with the repository's CMake build.

setuptools cannot compile the C++ probe library (it needs the project's
CMake configuration, zstd and xxhash), so the one extension is built by
CMake, target `_dtb` (python/CMakeLists.txt), and copied into the package:

- with DTB_BUILD_DIR set to an existing CMake build directory of this
  repository (relative: to the repository root; what scripts/test does),
  only `cmake --build DIR --target _dtb`;
- otherwise a fresh build directory under setuptools' build_temp, configured
  for the interpreter running pip (tests and benchmarks off).

Parallel jobs: CMAKE_BUILD_PARALLEL_LEVEL if set, else one per core.
"""
import glob
import os
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("DTB_BUILD_DIR")
        if build_dir:
            build_dir = os.path.join(REPOSITORY, build_dir)  # a relative path is from the repository root
            if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
                raise RuntimeError(f"DTB_BUILD_DIR={build_dir} is not a CMake build directory of draughts-tb")
        else:
            build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            subprocess.check_call(["cmake", "-S", REPOSITORY, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                                   f"-DDTB_PYTHON={sys.executable}", "-DDTB_BUILD_TESTS=OFF",
                                   "-DDTB_BUILD_BENCH=OFF"])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_dtb", "-j", jobs])

        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = glob.glob(os.path.join(build_dir, "python", "dtb", "_dtb*.so"))
        matching = [path for path in built if path.endswith(suffix)]
        if not matching:
            raise RuntimeError(f"no _dtb{suffix} in {build_dir}/python/dtb (found {built}): that build is for "
                               f"another Python than {sys.executable}; configure it with -DDTB_PYTHON=...")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(matching[0], target)


# Packages here rather than in pyproject.toml: setuptools 66 (Debian 12) calls
# [tool.setuptools] a beta feature and warns on every build.
setup(packages=["dtb"], package_data={"dtb": ["py.typed", "*.pyi"]},
      ext_modules=[Extension("dtb._dtb", sources=[])], cmdclass={"build_ext": CMakeBuild})
