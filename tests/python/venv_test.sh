#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package as a user gets it: a fresh venv, `pip install ./python`
# (pyopencl and numpy from PyPI, or from NPLUS1_PIP_OPTIONS' index, e.g.
# "--no-index --find-links DIR"), then run_sets.py drives generated sets
# beside the originals through PyOpenCL on POCL.
#
# usage: venv_test.sh SOURCE_DIR WORK_DIR NPLUS1GEN LIBNPLUS1RT
set -euo pipefail
src=$1 work=$2 tool=$3 lib=$4
rm -rf "$work"
mkdir -p "$work"
t0=$(date +%s)
python3 -m venv "$work/venv"
# pip builds in the tree it installs: a copy (LICENSE's link resolved) keeps
# build/ and *.egg-info out of the source folder
cp -rL "$src/python" "$work/python"
# shellcheck disable=SC2086  # NPLUS1_PIP_OPTIONS is a list of options
"$work/venv/bin/pip" install --quiet --disable-pip-version-check ${NPLUS1_PIP_OPTIONS:-} "$work/python"
t1=$(date +%s)
echo "venv and pip install ./python: $((t1 - t0)) s"
"$work/venv/bin/python" -c 'import nplus1, importlib.metadata as m; print("nplus1", nplus1.__version__, "licence", m.metadata("nplus1")["License-Expression"])'
# the package finds the tool and the library as documented (docs/python.md)
NPLUS1_TOOL=$tool NPLUS1_LIBRARY_PATH=$lib "$work/venv/bin/python" "$src/tests/python/run_sets.py" \
    "$src/samples" "$work/sets"
echo "sets run: $(( $(date +%s) - t1 )) s"
# docs/python.md's complete example, as a user runs it
mkdir -p "$work/example"
cp "$src/samples/oneKernel.cl" "$work/example/"
"$work/venv/bin/python" - "$src/docs/python.md" "$work/example/example.py" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"<!-- tested:[^\n]*-->\n```python\n(.*?)```", text, re.S)
open(sys.argv[2], "w").write(block.group(1))
PY
(cd "$work/example" && env -u NPLUS1_SPLIT PYOPENCL_CTX=Portable NPLUS1_TOOL=$tool NPLUS1_LIBRARY_PATH=$lib \
    "$work/venv/bin/python" example.py) | tee "$work/example/output.txt"
equal=$(grep -c -- "- equal: True$" "$work/example/output.txt" || true)
echo "docs/python.md example: $equal of 6 launches equal to the original"
[ "$equal" -eq 6 ]
# without NPLUS1_LIBRARY_PATH: beside the tool (here the build tree's runtime/) ...
pkg=$("$work/venv/bin/python" -c 'import nplus1, os; print(os.path.dirname(nplus1.__file__))')
found=$(env -u NPLUS1_LIBRARY_PATH NPLUS1_TOOL="$tool" "$work/venv/bin/python" -c 'import nplus1; print(nplus1.library_path())')
echo "beside the tool: $found"
[ "$found" = "$(dirname "$(dirname "$tool")")/runtime/libnplus1rt.so.0" ]
# ... and, first, next to the package
cp "$lib" "$pkg/libnplus1rt.so.0"
found=$(env -u NPLUS1_LIBRARY_PATH NPLUS1_TOOL=/nonexistent "$work/venv/bin/python" -c 'import nplus1; print(nplus1.library_path())')
echo "without NPLUS1_LIBRARY_PATH: $found"
[ "$found" = "$pkg/libnplus1rt.so.0" ]
