"""Build of the optional C accelerator; the project's metadata is in pyproject.toml.

``kiosk.rules._speedups`` speeds up ``gammon-kiosk check``. It is optional: where no C compiler
or Python headers are available (``gcc`` and ``python3-dev`` on Debian), the build goes on
without it and the pure-Python rules core answers instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kiosk.rules._speedups",
            ["kiosk/rules/_speedups.c"],
            extra_compile_args=["-std=c11", "-Wall", "-Wextra"],
            optional=True,
        )
    ]
)
