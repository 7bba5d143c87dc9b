#!/usr/bin/env bash
# Installs what nplus1gen needs to build and test on Debian 12 (bookworm).
# Idempotent: packages already present are skipped; apt-get runs only when
# something is missing. Needs root (or sudo) for apt-get.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config python3
  libclang-14-dev llvm-14-tools clang-14    # libclang C API, FileCheck, lit; clang for the fuzzer
  libclang-rt-14-dev                          # sanitizer/libFuzzer runtimes
  ocl-icd-opencl-dev opencl-c-headers ocl-icd-libopencl1 clinfo
  pocl-opencl-icd                             # the default OpenCL device (CPU)
  oclgrind                                    # --device oclgrind; names out-of-bounds accesses
  uthash-dev
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
