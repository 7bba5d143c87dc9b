# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts that run on the GPU machine (OpenCL, no libclang):
# one way to register NVIDIA's OpenCL and to build the runtime side there.

# NVIDIA's OpenCL as an ICD, where the driver's library exists and the
# vendors folder is writable (a machine without it keeps its ICDs).
gpu_register_nvidia() {
    mkdir -p /etc/OpenCL/vendors 2>/dev/null || true
    if [ -f /usr/lib/libnvidia-opencl.so.1 ] && [ -w /etc/OpenCL/vendors ]; then
        echo /usr/lib/libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
    fi
}

# gpu_build TARGET [BUILD_DIR] [INCLUDE_DIR]: one target of the runtime side
# (nplus1gen-validate, nplus1bench), Release, without the tool
# (-DNPLUS1_BUILD_TOOL=OFF); INCLUDE_DIR holds the carried uthash.h
# (default .carry/include). Prints nothing unless it fails.
gpu_build() {
    local target=$1 dir=${2:-build-gpu} inc=${3:-.carry/include} log
    log=$(cmake -S . -B "$dir" -DNPLUS1_BUILD_TOOL=OFF -DCMAKE_BUILD_TYPE=Release \
                -DCMAKE_C_FLAGS="-I$(realpath "$inc")" 2>&1 &&
          cmake --build "$dir" -j "$(nproc)" --target "$target" 2>&1) || {
        echo "$log" | tail -20 >&2
        echo "gpu_build: building $target in $dir failed" >&2
        return 1
    }
}
