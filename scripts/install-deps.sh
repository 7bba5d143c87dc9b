#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what nplus1gen needs to build and test on Debian 12 (bookworm).
# Idempotent: packages already present are skipped; apt-get runs only when
# something is missing. Needs root (or sudo) for apt-get.
#
# usage: install-deps.sh [--llvm N]
#   --llvm N   the libclang to build against and the LLVM test tools beside it:
#              libclang-N-dev and llvm-N-tools (default 14; Debian 12 has 14, 15,
#              16, 19). The build takes the newest installed libclang unless told
#              -DNPLUS1_LLVM_ROOT=/usr/lib/llvm-N (docs/cmake.md).
set -euo pipefail

LLVM=14
while [ $# -gt 0 ]; do
  case "$1" in
    --llvm) LLVM=${2:-}; shift 2 || true ;;
    --llvm=*) LLVM=${1#--llvm=}; shift ;;
    -h|--help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "install-deps: unknown argument '$1' (usage: install-deps.sh [--llvm N])" >&2; exit 2 ;;
  esac
done
case "$LLVM" in
  ''|*[!0-9]*) echo "install-deps: --llvm takes a major version number, e.g. 16 (got '$LLVM')" >&2; exit 2 ;;
esac

PKGS=(
  build-essential cmake pkg-config python3
  "libclang-$LLVM-dev" "llvm-$LLVM-tools"   # libclang C API; FileCheck, lit
  clang-14                                    # clang for the fuzzer (fuzz/build.sh)
  libclang-rt-14-dev                          # sanitizer/libFuzzer runtimes
  ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1 clinfo
  pocl-opencl-icd                             # the default OpenCL device (CPU)
  oclgrind                                    # --device oclgrind; names out-of-bounds accesses
  uthash-dev
  libpng-dev                                  # --profile-map writes PNG
  lintian                                     # the .deb test checks the packages with it
  python3-venv                                # the Python package's test: a fresh venv, pip
                                              # install ./python (pyopencl, numpy from PyPI)
  chromium                                    # headless: the --profile-html test renders the report
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all dependencies present"
  exit 0
fi

echo "install-deps: installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "install-deps: error: need root to apt-get install: ${missing[*]}" >&2
    echo "install-deps: run this script as root, or install those packages yourself" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "install-deps: done"
