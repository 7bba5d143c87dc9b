#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The consumer tests: nplus1gen used from outside, through an installed
# package, exactly as a user project would use it (see tests/consumer/project).
#
# usage: run_consumer_test.sh MODE --build-dir DIR --source-dir DIR --work-dir DIR
#                             [--cmake CMAKE] [--generator G] [--config C]
#                             [--c-compiler CC] [--cxx-compiler CXX] [--flags "FLAGS"]
#   MODE full          install the build into a prefix; configure, build and run the
#                      consumer against it; edit the header its kernels include,
#                      rebuild, check that the drivers were regenerated, run again
#   MODE runtime-only  build and install nplus1gen with -DNPLUS1_BUILD_TOOL=OFF; check
#                      the runtime is installed and usable, and that nplus1_generate()
#                      says clearly that this package has no tool
#   MODE makefile      install the build into a prefix; build the same app with the
#                      Makefile in makefile/ (pkg-config, no CMake), run it; check the
#                      driver refuses a set generated for another format version
#   MODE build-tree    configure, build and run the consumer against the build
#                      directory itself (nplus1gen_DIR=BUILD, nothing installed); check
#                      which versions find_package(nplus1gen VERSION) accepts
#   MODE cxx-only      install the build into a prefix; configure, build and run
#                      cxx-project/ (project(... CXX), no C) against it: the generated
#                      C driver must be compiled and linked; without a C compiler,
#                      nplus1_generate() must stop at configure time saying so
#   MODE deb           cpack -G DEB in the build; check the three packages (libnplus1rt0,
#                      libnplus1rt-dev, nplus1gen): names, files, Depends, copyright, and
#                      lintian (when installed) finds no error or warning; extract them
#                      into a fresh prefix and build and run the CMake and the Makefile
#                      consumers against it
# --flags go to the consumer's compile and link lines (the -Werror set; the
# sanitizers when the build under test has them). Everything happens under
# --work-dir, which is emptied first and left for inspection.
set -euo pipefail

mode=${1:-}
shift || true
build_dir="" source_dir="" work="" generator="" config="" cc="" cxx="" flags="" cmake=cmake
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build_dir=$2 ;;
    --source-dir) source_dir=$2 ;;
    --work-dir) work=$2 ;;
    --cmake) cmake=$2 ;;
    --generator) generator=$2 ;;
    --config) config=$2 ;;
    --c-compiler) cc=$2 ;;
    --cxx-compiler) cxx=$2 ;;
    --flags) flags=$2 ;;
    *) echo "run_consumer_test.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift 2
done
if [ -z "$mode" ] || [ -z "$build_dir" ] || [ -z "$source_dir" ] || [ -z "$work" ]; then
  echo "usage: run_consumer_test.sh full|runtime-only|makefile|build-tree|cxx-only|deb --build-dir DIR --source-dir DIR --work-dir DIR [...]" >&2
  exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

step() {
  echo "== $*"
}

# Runs a command, its output in $work/logs/NAME.log; prints the log on failure.
logged() {
  local name=$1
  shift
  mkdir -p "$work/logs"
  if ! "$@" >"$work/logs/$name.log" 2>&1; then
    cat "$work/logs/$name.log" >&2
    fail "$name: '$*' failed (log: $work/logs/$name.log)"
  fi
}

# The configure arguments every consumer gets: the build's generator and
# compilers, and the flags that keep the generated code -Werror clean.
consumer_configure_args() {
  local args=()
  [ -n "$generator" ] && args+=(-G "$generator")
  [ -n "$cc" ] && args+=("-DCMAKE_C_COMPILER=$cc")
  [ -n "$cxx" ] && args+=("-DCMAKE_CXX_COMPILER=$cxx")
  args+=("-DCMAKE_BUILD_TYPE=${config:-RelWithDebInfo}"
         "-DCMAKE_C_FLAGS=-Wall -Wextra -Werror $flags"
         "-DCMAKE_CXX_FLAGS=-Wall -Wextra -Werror -pedantic $flags"
         "-DCMAKE_EXE_LINKER_FLAGS=$flags"
         -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
  printf '%s\n' "${args[@]}"
}

configure_consumer() { # SRC BUILD PREFIX
  local args
  mapfile -t args < <(consumer_configure_args)
  "$cmake" -S "$1" -B "$2" -DCMAKE_PREFIX_PATH="$3" "${args[@]}"
}

build() { # BUILD
  if [ -n "$config" ]; then
    "$cmake" --build "$1" --config "$config" -j"$(nproc)"
  else
    "$cmake" --build "$1" -j"$(nproc)"
  fi
}

# The app of a consumer build (single- and multi-config generators).
app_of() {
  if [ -x "$1/app" ]; then echo "$1/app"; else echo "$1/${config:-Debug}/app"; fi
}

check_found_in() { # BUILD PREFIX: find_package() took the package from PREFIX
  local dir found want
  dir=$(sed -n 's/^nplus1gen_DIR:PATH=//p' "$1/CMakeCache.txt")
  found=$(cd "$dir" && pwd -P)
  want=$(cd "$2" && pwd -P)
  case "$found" in
    "$want"/*) ;;
    *) fail "find_package(nplus1gen) found '$dir', not the package installed in $2" ;;
  esac
}

# ---- full: install, configure, build, run, edit a header, rebuild, run ------

run_full() {
  local prefix=$work/prefix src=$work/src bld=$work/build gen
  step "install $build_dir into $prefix"
  local install_args=(--install "$build_dir" --prefix "$prefix")
  [ -n "$config" ] && install_args+=(--config "$config")
  logged install "$cmake" "${install_args[@]}"
  for f in bin/nplus1gen bin/nplus1gen-validate include/nplus1rt.h include/nplus1rt_format.h \
           share/nplus1gen/templates/driver.c.tmpl; do
    [ -e "$prefix/$f" ] || fail "the install lacks $f"
  done
  for f in libnplus1rt.so libnplus1rt.a cmake/nplus1gen/nplus1genConfigVersion.cmake; do
    [ -n "$(lib_file "$prefix" "$f")" ] || fail "the install lacks lib/$f"
  done

  step "copy the consumer project to $src (the test edits its header)"
  cp -R "$here/project" "$src"

  step "configure the consumer with CMAKE_PREFIX_PATH=$prefix"
  logged configure configure_consumer "$src" "$bld" "$prefix"
  check_found_in "$bld" "$prefix"

  step "build"
  logged build1 build "$bld"
  gen=$bld/nplus1gen
  for f in shade_nplus1.c shade_nplus1.h shade.nplus1.cl shade.nplus1.json physics_nplus1.c; do
    [ -f "$gen/$f" ] || fail "the build did not generate $gen/$f"
  done
  grep -q 'BRIGHT_LEVEL 0.25f' "$gen/shade_nplus1.c" ||
    fail "shade_nplus1.c does not embed common.h as written"

  step "run"
  local app
  app=$(app_of "$bld")
  logged run1 "$app"
  cat "$work/logs/run1.log"

  step "SKIP_REFUSED: mixed.cl's refused kernel is left out, named in the manifest"
  grep -q '"name": "with_barrier", "refused": true, "rule": "nplus1-barrier"' "$gen/mixed.nplus1.json" ||
    fail "mixed.nplus1.json does not list with_barrier as skipped (nplus1-barrier)"
  grep -q 'nplus1_heavy_create' "$gen/mixed_nplus1.h" ||
    fail "mixed_nplus1.h lacks heavy's driver"
  grep -q 'nplus1_with_barrier' "$gen/mixed_nplus1.h" &&
    fail "mixed_nplus1.h has a driver for the refused with_barrier"
  grep -q '^mixed: heavy' "$work/logs/run1.log" || fail "the app did not run mixed's heavy"

  step "rebuild with nothing changed: the generator must not rerun"
  sleep 1 # a new mtime for what follows, even on coarse file systems
  touch "$work/stamp"
  logged build2 build "$bld"
  [ "$gen/shade_nplus1.c" -nt "$work/stamp" ] &&
    fail "a rebuild with nothing changed reran nplus1gen (the depfile is not taken as it is)"

  step "edit kernels/common.h (BRIGHT_LEVEL 0.25f -> 0.75f) and rebuild"
  sed -i 's/#define BRIGHT_LEVEL 0.25f/#define BRIGHT_LEVEL 0.75f/' "$src/kernels/common.h"
  grep -q 'BRIGHT_LEVEL 0.75f' "$src/kernels/common.h" || fail "could not edit common.h"
  logged build3 build "$bld"
  for f in shade_nplus1.c physics_nplus1.c; do
    [ "$gen/$f" -nt "$work/stamp" ] ||
      fail "editing common.h did not regenerate $f (the header is missing from the depfile dependencies)"
  done
  grep -q 'BRIGHT_LEVEL 0.75f' "$gen/shade_nplus1.c" ||
    fail "the regenerated shade_nplus1.c does not embed the edited common.h"
  grep -q 'nplus1gen: kernels/shade.cl' "$work/logs/build3.log" ||
    fail "the rebuild log does not show nplus1gen running on shade.cl"

  step "run again"
  logged run2 "$app"
  cat "$work/logs/run2.log"
  # The app validated against the edited original (read at run time): an app
  # still running the old driver, which embeds the old common.h, would have
  # failed with mismatches. Where the set split (non-zero bucket sizes), the
  # edit must also have moved work-items between shade's leaves.
  local before after
  before=$(grep '^shade:' "$work/logs/run1.log")
  after=$(grep '^shade:' "$work/logs/run2.log")
  if echo "$after" | grep -Eq 'items per leaf( 0)+,'; then
    echo "note: shade's driver ran the original kernel (the tool's cost model or the" \
         "divergence probe chose it): leaf counts not compared"
  else
    [ "$before" != "$after" ] ||
      fail "shade's leaf counts did not move with BRIGHT_LEVEL: the app runs the old driver"
  fi
  [ "$(grep '^physics:' "$work/logs/run1.log")" = "$(grep '^physics:' "$work/logs/run2.log")" ] ||
    fail "physics changed although nothing it uses changed"
}

# ---- runtime-only: -DNPLUS1_BUILD_TOOL=OFF ---------------------------------

run_runtime_only() {
  local rbuild=$work/nplus1gen-build prefix=$work/prefix
  step "configure, build and install nplus1gen with -DNPLUS1_BUILD_TOOL=OFF"
  local args=()
  [ -n "$generator" ] && args+=(-G "$generator")
  [ -n "$cc" ] && args+=("-DCMAKE_C_COMPILER=$cc")
  logged configure-rt "$cmake" -S "$source_dir" -B "$rbuild" "${args[@]}" \
    -DNPLUS1_BUILD_TOOL=OFF -DNPLUS1_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
  # the runtime is what this package installs; the bench is not this test's business
  logged build-rt "$cmake" --build "$rbuild" --config RelWithDebInfo -j"$(nproc)" \
    --target nplus1rt nplus1rt_static nplus1gen-validate
  logged install-rt "$cmake" --install "$rbuild" --config RelWithDebInfo --prefix "$prefix"
  [ -e "$prefix/include/nplus1rt.h" ] && [ -e "$prefix/include/nplus1rt_format.h" ] ||
    fail "the runtime-only install lacks nplus1rt.h or nplus1rt_format.h"
  [ -n "$(lib_file "$prefix" libnplus1rt.so)" ] && [ -n "$(lib_file "$prefix" libnplus1rt.a)" ] ||
    fail "the runtime-only install lacks libnplus1rt.so or libnplus1rt.a"
  [ -e "$prefix/bin/nplus1gen" ] && fail "the runtime-only install has bin/nplus1gen"
  [ -x "$prefix/bin/nplus1gen-validate" ] ||
    fail "the runtime-only install lacks bin/nplus1gen-validate (it runs emitted jobs)"

  step "a project using only the runtime builds and runs against it"
  local mini=$work/runtime-user
  mkdir -p "$mini"
  cat >"$mini/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(runtime_user LANGUAGES C)
find_package(nplus1gen CONFIG REQUIRED COMPONENTS runtime)
if(TARGET nplus1gen::nplus1gen OR nplus1gen_tool_FOUND)
  message(FATAL_ERROR "a runtime-only package must not offer the tool")
endif()
add_executable(shared_user main.c)
target_link_libraries(shared_user PRIVATE nplus1gen::runtime)
add_executable(static_user main.c)
target_link_libraries(static_user PRIVATE nplus1gen::runtime_static)
EOF
  cat >"$mini/main.c" <<'EOF'
#include <stdio.h>
#include <string.h>

#include "nplus1rt.h"

int main(void)
{
    const char *s = nplus1_strerror(CL_INVALID_VALUE);
    printf("nplus1rt %s: %s\n", NPLUS1RT_VERSION, s);
    return strcmp(s, "CL_INVALID_VALUE") != 0;
}
EOF
  logged configure-mini configure_consumer "$mini" "$mini/build" "$prefix"
  check_found_in "$mini/build" "$prefix"
  logged build-mini build "$mini/build"
  local exe
  for exe in shared_user static_user; do
    if [ -x "$mini/build/$exe" ]; then exe=$mini/build/$exe; else exe=$mini/build/${config:-Debug}/$exe; fi
    logged "run-$(basename "$exe")" "$exe"
  done

  step "nplus1_generate() in the consumer project fails, saying the package has no tool"
  cp -R "$here/project" "$work/src"
  if configure_consumer "$work/src" "$work/build" "$prefix" >"$work/logs/configure.log" 2>&1; then
    fail "the consumer configured against a package without the tool"
  fi
  grep -q 'nplus1_generate: the nplus1gen package' "$work/logs/configure.log" &&
    grep -q 'NPLUS1_BUILD_TOOL=OFF' "$work/logs/configure.log" || {
    cat "$work/logs/configure.log" >&2
    fail "the configure error does not say the package was built without the tool"
  }
  sed -n '/CMake Error/,/^Call Stack/p' "$work/logs/configure.log"

  step "find_package(nplus1gen COMPONENTS tool) is refused with the reason"
  local comp=$work/wants-tool
  mkdir -p "$comp"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(wants_tool LANGUAGES C)' \
    'find_package(nplus1gen CONFIG REQUIRED COMPONENTS tool)' >"$comp/CMakeLists.txt"
  if configure_consumer "$comp" "$comp/build" "$prefix" >"$work/logs/configure-tool.log" 2>&1; then
    fail "find_package(nplus1gen COMPONENTS tool) succeeded on a runtime-only package"
  fi
  grep -q 'NPLUS1_BUILD_TOOL=OFF' "$work/logs/configure-tool.log" || {
    cat "$work/logs/configure-tool.log" >&2
    fail "the COMPONENTS tool refusal does not give the reason"
  }
}

# ---- makefile, build-tree, deb -----------------------------------------------

project_version() {
  sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build_dir/CMakeCache.txt"
}

# PREFIX/lib*/PATH or PREFIX/lib/<multiarch>/PATH, the first that exists; "" if none.
lib_file() { # PREFIX PATH
  local f
  for f in "$1"/lib*/"$2" "$1"/lib/*/"$2"; do
    if [ -e "$f" ]; then
      echo "$f"
      return
    fi
  done
}

# The folder of nplus1rt.pc under PREFIX (lib/pkgconfig or the multiarch one).
pc_dir_of() {
  local pc
  pc=$(lib_file "$1" pkgconfig/nplus1rt.pc)
  [ -n "$pc" ] || fail "no nplus1rt.pc under $1/lib*/pkgconfig"
  dirname "$pc"
}

# Builds the consumer app with makefile/Makefile against PREFIX into DIR, runs it.
makefile_consumer() { # PREFIX DIR
  local prefix=$1 dir=$2 pcdir libdir version
  pcdir=$(pc_dir_of "$prefix")
  export PKG_CONFIG_PATH=$pcdir
  version=$(pkg-config --modversion nplus1rt) || fail "pkg-config --modversion nplus1rt failed"
  [ "$version" = "$(project_version)" ] ||
    fail "nplus1rt.pc says version '$version', the build is $(project_version)"
  libdir=$(pkg-config --variable=libdir nplus1rt)
  [ -e "$libdir/libnplus1rt.so" ] || fail "nplus1rt.pc's libdir '$libdir' has no libnplus1rt.so"
  step "make: the app with \$(pkg-config --cflags --libs nplus1rt), against $prefix"
  logged "make-$(basename "$dir")" make -f "$here/makefile/Makefile" SRC="$here/project" \
    OUT="$dir" NPLUS1GEN="$prefix/bin/nplus1gen" CC="${cc:-cc}" \
    CFLAGS="-O2 -Wall -Wextra -Werror $flags" LDFLAGS="-Wl,-rpath,$libdir $flags"
  grep -q '"format_version": [0-9]' "$dir/gen/shade.nplus1.json" ||
    fail "the manifest does not record the format version"
  step "run"
  logged "run-make-$(basename "$dir")" "$dir/app"
  cat "$work/logs/run-make-$(basename "$dir").log"
}

# A driver generated for another format version: its _create must refuse.
format_refusal() { # PREFIX DIR (a makefile_consumer build)
  local prefix=$1 dir=$2 bad=$2/bad
  step "a driver generated for format version 99 is refused by _create"
  mkdir -p "$bad"
  sed 's/^\( *\.format_version = \)[0-9][0-9]*,/\199,/' "$dir/gen/shade_nplus1.c" >"$bad/shade_nplus1.c"
  grep -q '^ *\.format_version = 99,' "$bad/shade_nplus1.c" ||
    fail "could not find the format version in the generated shade_nplus1.c"
  logged cc-format "${cc:-cc}" -O2 $(pkg-config --cflags nplus1rt) -I"$dir/gen" \
    -DKERNEL_DIR="\"$here/project/kernels\"" -o "$bad/app" "$here/project/main.c" \
    "$bad/shade_nplus1.c" "$dir/gen/physics_nplus1.c" $(pkg-config --libs nplus1rt) \
    -Wl,-rpath,"$(pkg-config --variable=libdir nplus1rt)" $flags
  if "$bad/app" >"$work/logs/run-format.log" 2>&1; then
    fail "an app whose driver says format version 99 ran"
  fi
  grep -q 'NPLUS1_ERR_FORMAT' "$work/logs/run-format.log" &&
    grep -q 'generated for format version 99' "$work/logs/run-format.log" || {
    cat "$work/logs/run-format.log" >&2
    fail "the refusal does not name NPLUS1_ERR_FORMAT and the driver's format version"
  }
  grep 'format version' "$work/logs/run-format.log"
}

run_makefile() {
  local prefix=$work/prefix
  step "install $build_dir into $prefix"
  local install_args=(--install "$build_dir" --prefix "$prefix")
  [ -n "$config" ] && install_args+=(--config "$config")
  logged install "$cmake" "${install_args[@]}"
  makefile_consumer "$prefix" "$work/make"
  local cflags
  cflags=$(pkg-config --cflags nplus1rt | sed 's/ *$//')
  [ "$cflags" = "-I$prefix/include" ] ||
    fail "pkg-config --cflags nplus1rt says '$cflags', not -I$prefix/include"
  format_refusal "$prefix" "$work/make"
}

# find_package(nplus1gen VERSION) against the build tree: want ok|refused.
version_check() { # VERSION ok|refused
  local p=$work/version-$1
  mkdir -p "$p"
  printf '%s\n' 'cmake_minimum_required(VERSION 3.16)' 'project(version_check LANGUAGES C)' \
    "find_package(nplus1gen $1 CONFIG REQUIRED)" >"$p/CMakeLists.txt"
  if "$cmake" -S "$p" -B "$p/build" -Dnplus1gen_DIR="$build_dir" >"$work/logs/version-$1.log" 2>&1; then
    [ "$2" = ok ] || fail "find_package(nplus1gen $1) accepted version $(project_version)"
  else
    [ "$2" = refused ] || { cat "$work/logs/version-$1.log" >&2; fail "find_package(nplus1gen $1) refused $(project_version)"; }
  fi
  echo "find_package(nplus1gen $1) against $(project_version): $2"
}

run_build_tree() {
  local src=$work/src bld=$work/build
  step "configure the consumer with nplus1gen_DIR=$build_dir (nothing installed)"
  cp -R "$here/project" "$src"
  local args
  mapfile -t args < <(consumer_configure_args)
  logged configure "$cmake" -S "$src" -B "$bld" -Dnplus1gen_DIR="$build_dir" "${args[@]}"
  check_found_in "$bld" "$build_dir"
  step "build and run"
  logged build build "$bld"
  logged run "$(app_of "$bld")"
  cat "$work/logs/run.log"
  step "version compatibility (0.x: the same minor version only)"
  local v major minor
  v=$(project_version)
  major=${v%%.*}
  minor=${v#*.}
  minor=${minor%%.*}
  version_check "$v" ok
  version_check "$major.$minor" ok
  version_check "$major.$((minor + 1))" refused
  version_check "$((major + 1)).0" refused
  if [ "$major" = 0 ] && [ "$minor" -gt 0 ]; then
    version_check "0.$((minor - 1))" refused
  fi
}

# The .deb's control fields and documents, and the multiarch library folder
# docs/cmake.md names (Debian policy: /usr/lib/<triplet>).
deb_contents() { # PKGDIR PREFIX (the three packages, extracted into PREFIX, /usr)
  local pkg=$1 prefix=$2 arch f m p deb rt
  for p in nplus1gen libnplus1rt0 libnplus1rt-dev; do
    deb=$(ls "$pkg/${p}_"*.deb)
    m=$(dpkg-deb -f "$deb" Maintainer)
    [ "$m" = "nplus1gen developers <nplus1gen@users.noreply.github.com>" ] ||
      fail "$p: the Maintainer field is '$m'"
    grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' \
      "$prefix/share/doc/$p/copyright" || fail "$p: copyright is not in the machine-readable format"
    grep -q '^License: Apache-2.0$' "$prefix/share/doc/$p/copyright" &&
      grep -q '/usr/share/common-licenses/Apache-2.0' "$prefix/share/doc/$p/copyright" ||
      fail "$p: copyright does not name the Apache-2.0 licence"
    zcat "$prefix/share/doc/$p/changelog.gz" >"$work/logs/changelog-$p.txt"
    grep -q "^nplus1gen ($(project_version)) " "$work/logs/changelog-$p.txt" ||
      fail "$p: changelog.gz does not start with nplus1gen ($(project_version))"
    [ "$(od -An -tu4 -j4 -N4 "$prefix/share/doc/$p/changelog.gz" | tr -d ' ')" = 0 ] ||
      fail "$p: changelog.gz has a time stamp (not gzip -n)"
  done
  arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
  for f in libnplus1rt.so libnplus1rt.so.0 libnplus1rt.a cmake/nplus1gen/nplus1genConfig.cmake \
           cmake/nplus1gen/nplus1genConfigVersion.cmake pkgconfig/nplus1rt.pc; do
    [ -e "$prefix/lib/$arch/$f" ] || fail "the packages lack /usr/lib/$arch/$f"
  done
  [ -z "$(ls "$prefix"/lib/libnplus1rt* 2>/dev/null)" ] || fail "the packages have libs in /usr/lib"
  # Debian's split: the shared library alone in libnplus1rt0, its link in -dev
  rt=$(ls "$pkg"/libnplus1rt0_*.deb)
  dpkg-deb -c "$rt" | awk '{print $6}' | grep -E '\.so|\.a$|include' >"$work/logs/rt-files.txt" || true
  [ "$(grep -c 'libnplus1rt\.so\.0' "$work/logs/rt-files.txt")" = 2 ] &&
    ! grep -Eq 'libnplus1rt\.so$|\.a$|include' "$work/logs/rt-files.txt" ||
    fail "libnplus1rt0 holds more than libnplus1rt.so.0*: $(cat "$work/logs/rt-files.txt")"
  dpkg-deb -c "$(ls "$pkg"/libnplus1rt-dev_*.deb)" | grep 'libnplus1rt\.so -> ' >/dev/null ||
    fail "libnplus1rt-dev lacks the libnplus1rt.so link"
  dpkg-deb -f "$(ls "$pkg"/libnplus1rt-dev_*.deb)" Depends | grep "libnplus1rt0 (= $(project_version))" >/dev/null ||
    fail "libnplus1rt-dev does not depend on libnplus1rt0 (= $(project_version))"
  dpkg-deb --ctrl-tarfile "$rt" | tar -xO ./triggers | grep 'activate-noawait ldconfig' >/dev/null ||
    fail "libnplus1rt0 has no ldconfig trigger"
  dpkg-deb --ctrl-tarfile "$rt" | tar -xO ./shlibs | grep '^libnplus1rt 0 libnplus1rt0' >/dev/null ||
    fail "libnplus1rt0 has no shlibs for libnplus1rt.so.0"
  grep -q '^prefix=/usr$' "$prefix/lib/$arch/pkgconfig/nplus1rt.pc" ||
    fail "the packaged nplus1rt.pc does not say prefix=/usr"
  # no run path in the tool when libclang is on the default path (Debian's libclang1-N)
  if readelf -d "$prefix/bin/nplus1gen" | grep -E 'RUNPATH|RPATH' >/dev/null; then
    readelf -d "$prefix/bin/nplus1gen" | grep -E 'RUNPATH|RPATH' >&2
    local so
    so=$(readelf -d "$prefix/bin/nplus1gen" | sed -n 's/.*Shared library: \[\(libclang[^]]*\)\].*/\1/p')
    [ -e "/usr/lib/$arch/$so" ] && fail "nplus1gen has a run path, but $so is on the default path"
  fi
}

# lintian on the packages: no error, no warning (info and pedantic tags are not asked for).
deb_lintian() { # PKGDIR
  if ! command -v lintian >/dev/null 2>&1; then
    echo "note: lintian is not installed (scripts/install-deps.sh installs it): not run"
    return
  fi
  step "lintian: no error and no warning"
  lintian --tag-display-limit 0 "$1"/*.deb >"$work/logs/lintian.txt" 2>&1 || true
  cat "$work/logs/lintian.txt"
  ! grep -Eq '^[EW]: ' "$work/logs/lintian.txt" || fail "lintian reports errors or warnings (above)"
}

run_deb() {
  local pkg=$work/pkg root=$work/root v deb p
  v=$(project_version)
  step "cpack -G DEB"
  mkdir -p "$pkg"
  local cpack
  cpack=$(dirname "$cmake")/cpack
  [ -x "$cpack" ] || cpack=cpack
  logged cpack "$cpack" -G DEB -B "$pkg" --config "$build_dir/CPackConfig.cmake"
  for p in nplus1gen libnplus1rt0 libnplus1rt-dev; do
    deb=$(ls "$pkg"/"$p"_"$v"_*.deb 2>/dev/null | head -n1)
    [ -n "$deb" ] || fail "cpack made no ${p}_${v}_<arch>.deb in $pkg: $(ls "$pkg")"
    echo "package: $(basename "$deb"): $(dpkg-deb -f "$deb" Depends)"
  done
  deb=$(ls "$pkg"/nplus1gen_"$v"_*.deb)
  dpkg-deb -f "$deb" Depends | tee "$work/logs/depends.txt"
  grep -q 'libclang' "$work/logs/depends.txt" || fail "nplus1gen's Depends names no libclang package"
  grep -q "libnplus1rt-dev (= $v)" "$work/logs/depends.txt" ||
    fail "nplus1gen's Depends lacks libnplus1rt-dev (= $v)"
  dpkg-deb -f "$(ls "$pkg"/libnplus1rt0_*.deb)" Depends | grep -i 'opencl' >/dev/null ||
    fail "libnplus1rt0's Depends names no OpenCL package"
  deb_lintian "$pkg"
  step "extract the three packages into a fresh prefix $root"
  for deb in "$pkg"/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
  local prefix=$root/usr f
  for f in bin/nplus1gen bin/nplus1gen-validate include/nplus1rt.h include/nplus1rt_format.h \
           share/man/man1/nplus1gen.1.gz share/man/man1/nplus1gen-validate.1.gz \
           share/nplus1gen/templates/driver.c.tmpl share/doc/nplus1gen/copyright \
           share/doc/nplus1gen/changelog.gz; do
    [ -e "$prefix/$f" ] || fail "the packages lack /usr/$f"
  done
  deb_contents "$pkg" "$prefix"
  [ -n "$(lib_file "$prefix" pkgconfig/nplus1rt.pc)" ] || fail "the package lacks nplus1rt.pc"
  "$prefix/bin/nplus1gen" --version | tee "$work/logs/version.txt"
  grep -q "^nplus1gen $v\$" "$work/logs/version.txt" || fail "the packaged tool is not version $v"

  step "the CMake consumer against the extracted packages"
  cp -R "$here/project" "$work/src"
  logged configure configure_consumer "$work/src" "$work/build" "$prefix"
  check_found_in "$work/build" "$root"
  logged build build "$work/build"
  logged run "$(app_of "$work/build")"
  cat "$work/logs/run.log"
  step "nplus1rt.pc names /usr: pkg-config drops its system folders"
  local flags_usr
  flags_usr=$(PKG_CONFIG_PATH=$(pc_dir_of "$prefix") pkg-config --cflags --libs nplus1rt | sed 's/ *$//')
  echo "pkg-config --cflags --libs nplus1rt: $flags_usr"
  case " $flags_usr " in
    *" -I"*|*" -L"*|*..*) fail "the packaged nplus1rt.pc gives '$flags_usr' (a -I, -L or ..)" ;;
  esac
  # the extracted tree is a sysroot: pkg-config puts it before every path
  export PKG_CONFIG_SYSROOT_DIR=$root
  makefile_consumer "$prefix" "$work/make"
}

# ---- cxx-only: a C++-only project ------------------------------------------------

run_cxx_only() {
  local prefix=$work/prefix src=$work/src bld=$work/build
  step "install $build_dir into $prefix"
  local install_args=(--install "$build_dir" --prefix "$prefix")
  [ -n "$config" ] && install_args+=(--config "$config")
  logged install "$cmake" "${install_args[@]}"
  cp -R "$here/cxx-project" "$src"
  cp -R "$here/project/kernels" "$src/kernels"

  step "configure the C++-only project (project(... CXX)) against $prefix"
  logged configure configure_consumer "$src" "$bld" "$prefix"
  grep -q 'nplus1gen: enabling C for the generated drivers' "$work/logs/configure.log" ||
    fail "configuring a C++-only project did not say it enabled C for the drivers"
  step "build: the driver compiles as C and links into the C++ app"
  logged build build "$bld"
  [ -f "$bld/nplus1gen/physics_nplus1.c" ] || fail "the build did not generate physics_nplus1.c"
  find "$bld" -name 'physics_nplus1.c.o' | grep -q . ||
    fail "physics_nplus1.c was not compiled (no physics_nplus1.c.o in $bld)"
  step "run"
  logged run "$(app_of "$bld")"
  cat "$work/logs/run.log"
  grep -q '^physics from C++: [0-9]* leaf kernels, 0 mismatches' "$work/logs/run.log" ||
    fail "the C++ app did not report 0 mismatches"

  step "without a C compiler, nplus1_generate() stops at configure time and says why"
  local nocc=$work/build-no-cc args=()
  [ -n "$generator" ] && args+=(-G "$generator")
  if CC=/nonexistent/cc "$cmake" -S "$src" -B "$nocc" -DCMAKE_PREFIX_PATH="$prefix"        "${args[@]}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >"$work/logs/configure-no-cc.log" 2>&1; then
    fail "a C++-only project configured with no C compiler"
  fi
  grep -q 'the generated drivers are C' "$work/logs/configure-no-cc.log" || {
    cat "$work/logs/configure-no-cc.log" >&2
    fail "the configure error does not say that the drivers need C"
  }
  sed -n '/CMake Error/,/^Call Stack/p' "$work/logs/configure-no-cc.log"
}

rm -rf "$work"
mkdir -p "$work/logs"
case "$mode" in
  full) run_full ;;
  runtime-only) run_runtime_only ;;
  makefile) run_makefile ;;
  build-tree) run_build_tree ;;
  cxx-only) run_cxx_only ;;
  deb) run_deb ;;
  *) echo "run_consumer_test.sh: MODE is full, runtime-only, makefile, build-tree, cxx-only or deb (got '$mode')" >&2; exit 2 ;;
esac
echo "PASS ($mode, $(($(date +%s) - start)) s; work dir $work)"
