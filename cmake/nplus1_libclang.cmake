# SPDX-License-Identifier: Apache-2.0
# Finds the libclang the tool parses with: the newest installed one unless
# the user picks one. Included by tool/CMakeLists.txt.
#
# Picks, first match wins:
#   1. -DNPLUS1_LLVM_ROOT=DIR          an LLVM prefix (DIR/include/clang-c/Index.h, DIR/lib*/libclang*)
#   2. -DLIBCLANG_INCLUDE_DIR=... -DLIBCLANG_LIBRARY=...   both given by hand
#   3. -DClang_DIR=DIR, or an LLVM prefix in CMAKE_PREFIX_PATH (in its order)
#   4. the newest of: llvm-config's prefix, /usr/lib/llvm-N (Debian, Ubuntu),
#      /usr/lib64/llvm* and /usr (Fedora), Homebrew's llvm, /usr/local
# Sets (cache): LIBCLANG_INCLUDE_DIR, LIBCLANG_LIBRARY, NPLUS1_LIBCLANG_VERSION
# (the LLVM version of that prefix, "unknown" when it cannot be told),
# NPLUS1_LLVM_BIN_DIR (its bin/, where FileCheck and not live, when present)
# and NPLUS1_LLVM_LIT (its lit.py, when present).
# Then checks, against those headers and that library, the C API the tool
# needs, and detects what differs between versions (see nplus1_libclang_features).
include_guard(GLOBAL)
include(CheckSymbolExists)
include(CheckCSourceCompiles)

set(NPLUS1_LLVM_ROOT "" CACHE PATH "LLVM prefix whose libclang the tool uses (default: the newest installed)")

# The packages that provide libclang, for the configure error.
set(_nplus1_libclang_packages
    "Debian/Ubuntu: apt-get install libclang-N-dev llvm-N-tools (N = 14 or newer: ./scripts/install-deps.sh [--llvm N] does it)\n"
    "  Fedora: dnf install clang-devel llvm-devel\n"
    "  Homebrew: brew install llvm")
string(CONCAT _nplus1_libclang_packages ${_nplus1_libclang_packages})

# ${out} = the libclang shared library under ROOT, or "" when none.
function(_nplus1_libclang_library root out)
  set(found "")
  foreach(dir "${root}/lib" "${root}/lib64" "${root}/lib/${CMAKE_LIBRARY_ARCHITECTURE}")
    file(GLOB numbered "${dir}/libclang-[0-9]*.so")
    foreach(lib "${dir}/libclang.so" "${dir}/libclang.dylib" ${numbered})
      if(EXISTS "${lib}")
        set(found "${lib}")
        break()
      endif()
    endforeach()
    if(found)
      break()
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# ${out} = the LLVM version of ROOT: llvm-config's, else the clang resource
# directory's name (lib/clang/16 or lib/clang/14.0.6), else the N of llvm-N,
# else the library's file name; "" when none tells.
function(_nplus1_llvm_version root lib out)
  set(v "")
  if(EXISTS "${root}/bin/llvm-config")
    execute_process(COMMAND "${root}/bin/llvm-config" --version OUTPUT_VARIABLE v
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR NOT v MATCHES "^[0-9]")
      set(v "")
    endif()
  endif()
  if(NOT v)
    file(GLOB dirs LIST_DIRECTORIES true "${root}/lib/clang/[0-9]*" "${root}/lib64/clang/[0-9]*")
    foreach(d IN LISTS dirs)
      get_filename_component(n "${d}" NAME)
      if(n MATCHES "^[0-9][0-9.]*$" AND (NOT v OR n VERSION_GREATER v))
        set(v "${n}")
      endif()
    endforeach()
  endif()
  if(NOT v AND root MATCHES "llvm-?([0-9]+)$")
    set(v "${CMAKE_MATCH_1}")
  endif()
  if(NOT v AND lib)
    get_filename_component(real "${lib}" REALPATH)
    get_filename_component(name "${real}" NAME)
    if(name MATCHES "libclang-([0-9][0-9.]*[0-9])\\.so" OR name MATCHES "libclang\\.so\\.([0-9][0-9.]*)$")
      set(v "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# The LLVM prefixes to consider, the user's first (in ${explicit_out}).
function(_nplus1_llvm_candidates explicit_out others_out)
  set(explicit "")
  if(Clang_DIR)
    get_filename_component(r "${Clang_DIR}/../../.." ABSOLUTE)
    list(APPEND explicit "${r}")
  endif()
  foreach(p IN LISTS CMAKE_PREFIX_PATH)
    list(APPEND explicit "${p}")
  endforeach()
  set(others "")
  find_program(_nplus1_llvm_config NAMES llvm-config)
  set(llvm_config "${_nplus1_llvm_config}")
  unset(_nplus1_llvm_config CACHE)
  if(llvm_config)
    execute_process(COMMAND "${llvm_config}" --prefix OUTPUT_VARIABLE p
                    OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(p)
      list(APPEND others "${p}")
    endif()
  endif()
  file(GLOB globbed LIST_DIRECTORIES true /usr/lib/llvm-[0-9]* /usr/lib/llvm/[0-9]*
       /usr/lib64/llvm[0-9]* /usr/local/opt/llvm /usr/local/opt/llvm@[0-9]*
       /opt/homebrew/opt/llvm /opt/homebrew/opt/llvm@[0-9]*)
  list(APPEND others ${globbed} /usr /usr/local)
  set(${explicit_out} "${explicit}" PARENT_SCOPE)
  set(${others_out} "${others}" PARENT_SCOPE)
endfunction()

# Sets root/include/lib/version in the caller for the prefix ROOT when it has libclang.
macro(_nplus1_try_root root)
  set(_ok FALSE)
  if(EXISTS "${root}/include/clang-c/Index.h")
    _nplus1_libclang_library("${root}" _lib)
    if(_lib)
      _nplus1_llvm_version("${root}" "${_lib}" _ver)
      set(_ok TRUE)
    endif()
  endif()
endmacro()

function(_nplus1_find_libclang)
  # 1. NPLUS1_LLVM_ROOT
  if(NPLUS1_LLVM_ROOT)
    get_filename_component(root "${NPLUS1_LLVM_ROOT}" ABSOLUTE)
    set(packages "${_nplus1_libclang_packages}")
    if(root MATCHES "/llvm-([0-9]+)$")
      set(packages "apt-get install libclang-${CMAKE_MATCH_1}-dev llvm-${CMAKE_MATCH_1}-tools "
                   "(or ./scripts/install-deps.sh --llvm ${CMAKE_MATCH_1})")
      string(CONCAT packages ${packages})
    endif()
    if(NOT EXISTS "${root}/include/clang-c/Index.h")
      message(FATAL_ERROR "NPLUS1_LLVM_ROOT=${NPLUS1_LLVM_ROOT}: no include/clang-c/Index.h there "
              "(the libclang headers). Install them:\n  ${packages}")
    endif()
    _nplus1_try_root("${root}")
    if(NOT _ok)
      message(FATAL_ERROR "NPLUS1_LLVM_ROOT=${NPLUS1_LLVM_ROOT}: no libclang library in its lib/. "
              "Install it:\n  ${packages}")
    endif()
    set(pick_root "${root}")
    set(pick_lib "${_lib}")
    set(pick_ver "${_ver}")
  else()
    # 3. the user's prefixes, in order
    _nplus1_llvm_candidates(explicit others)
    set(pick_root "")
    foreach(root IN LISTS explicit)
      _nplus1_try_root("${root}")
      if(_ok)
        set(pick_root "${root}")
        set(pick_lib "${_lib}")
        set(pick_ver "${_ver}")
        break()
      endif()
    endforeach()
    # 4. the newest of the others
    if(NOT pick_root)
      foreach(root IN LISTS others)
        _nplus1_try_root("${root}")
        if(_ok AND (NOT pick_root OR _ver VERSION_GREATER pick_ver))
          set(pick_root "${root}")
          set(pick_lib "${_lib}")
          set(pick_ver "${_ver}")
        endif()
      endforeach()
    endif()
    if(NOT pick_root)
      message(FATAL_ERROR "nplus1gen needs libclang (the clang C API, clang-c/Index.h), version 14 "
              "or newer, and found none. Install it:\n  ${_nplus1_libclang_packages}\n"
              "or point -DNPLUS1_LLVM_ROOT=DIR at an LLVM install; "
              "-DNPLUS1_BUILD_TOOL=OFF builds the runtime alone.")
    endif()
  endif()
  if(NOT pick_ver)
    set(pick_ver "unknown")
  endif()
  set(LIBCLANG_INCLUDE_DIR "${pick_root}/include" CACHE PATH "clang-c headers" FORCE)
  set(LIBCLANG_LIBRARY "${pick_lib}" CACHE FILEPATH "libclang library" FORCE)
  set(NPLUS1_LIBCLANG_VERSION "${pick_ver}" CACHE STRING "LLVM version of the libclang used" FORCE)
  set(NPLUS1_LIBCLANG_ROOT "${pick_root}" CACHE INTERNAL "")
endfunction()

# 2. both paths given by hand (or found by an earlier configure with the same NPLUS1_LLVM_ROOT)
if(NOT "${NPLUS1_LLVM_ROOT}" STREQUAL "${_NPLUS1_LLVM_ROOT_USED}")
  unset(LIBCLANG_INCLUDE_DIR CACHE)
  unset(LIBCLANG_LIBRARY CACHE)
endif()
if(LIBCLANG_INCLUDE_DIR AND LIBCLANG_LIBRARY)
  if(NOT NPLUS1_LIBCLANG_VERSION OR
     NOT "${LIBCLANG_INCLUDE_DIR};${LIBCLANG_LIBRARY}" STREQUAL "${_NPLUS1_LIBCLANG_CHECKED}")
    get_filename_component(_root "${LIBCLANG_INCLUDE_DIR}/.." ABSOLUTE)
    _nplus1_llvm_version("${_root}" "${LIBCLANG_LIBRARY}" _ver)
    if(NOT _ver)
      set(_ver unknown)
    endif()
    set(NPLUS1_LIBCLANG_VERSION "${_ver}" CACHE STRING "LLVM version of the libclang used" FORCE)
    set(NPLUS1_LIBCLANG_ROOT "${_root}" CACHE INTERNAL "")
  endif()
else()
  _nplus1_find_libclang()
endif()
set(_NPLUS1_LLVM_ROOT_USED "${NPLUS1_LLVM_ROOT}" CACHE INTERNAL "")

# LLVM's test tools beside that libclang, when installed (llvm-N-tools).
set(NPLUS1_LLVM_BIN_DIR "")
if(EXISTS "${NPLUS1_LIBCLANG_ROOT}/bin/FileCheck")
  set(NPLUS1_LLVM_BIN_DIR "${NPLUS1_LIBCLANG_ROOT}/bin")
endif()
set(NPLUS1_LLVM_LIT "")
if(EXISTS "${NPLUS1_LIBCLANG_ROOT}/build/utils/lit/lit.py")
  set(NPLUS1_LLVM_LIT "${NPLUS1_LIBCLANG_ROOT}/build/utils/lit/lit.py")
endif()

message(STATUS "libclang ${NPLUS1_LIBCLANG_VERSION}: ${LIBCLANG_LIBRARY} (headers ${LIBCLANG_INCLUDE_DIR})")

# ---- what the tool needs, and what differs between versions -----------------
# Checked against the chosen headers and library; the results are cached
# per libclang, and re-checked when the libclang changes.
set(_nplus1_libclang_key "${LIBCLANG_INCLUDE_DIR};${LIBCLANG_LIBRARY}")
if(NOT "${_nplus1_libclang_key}" STREQUAL "${_NPLUS1_LIBCLANG_CHECKED}")
  unset(NPLUS1_LIBCLANG_USABLE CACHE)
  unset(NPLUS1_HAVE_CURSOR_OPERATOR_KINDS CACHE)
endif()
set(_NPLUS1_LIBCLANG_CHECKED "${_nplus1_libclang_key}" CACHE INTERNAL "")

set(CMAKE_REQUIRED_INCLUDES "${LIBCLANG_INCLUDE_DIR}")
set(CMAKE_REQUIRED_LIBRARIES "${LIBCLANG_LIBRARY}")
set(CMAKE_REQUIRED_QUIET ON)
# The newest calls the tool relies on (printing policies: libclang 7+;
# evaluation of integer results: 8+; the OpenCL calling convention).
check_c_source_compiles([[
#include <clang-c/Index.h>
int main(void)
{
    CXCursor c = clang_getNullCursor();
    CXPrintingPolicy p = clang_getCursorPrintingPolicy(c);
    clang_PrintingPolicy_setProperty(p, CXPrintingPolicy_TerseOutput, 1);
    CXString s = clang_getCursorPrettyPrinted(c, p);
    CXEvalResult r = clang_Cursor_Evaluate(c);
    long long v = r ? clang_EvalResult_getAsLongLong(r) : 0;
    clang_disposeString(s);
    clang_PrintingPolicy_dispose(p);
    return (int)v + (clang_getFunctionTypeCallingConv(clang_getCursorType(c)) == CXCallingConv_Unexposed);
}
]] NPLUS1_LIBCLANG_USABLE)
if(NOT NPLUS1_LIBCLANG_USABLE)
  message(FATAL_ERROR "the libclang in ${LIBCLANG_LIBRARY} (headers ${LIBCLANG_INCLUDE_DIR}) lacks "
          "C API calls nplus1gen needs (it needs libclang 14 or newer; see "
          "CMakeFiles/CMakeError.log). Install a newer one:\n  ${_nplus1_libclang_packages}\n"
          "and pick it with -DNPLUS1_LLVM_ROOT=DIR.")
endif()
# libclang 17+: the kind of a binary/unary operator cursor, so the tool need
# not read the operator from the source text between the operands.
check_symbol_exists(clang_getCursorBinaryOperatorKind "clang-c/Index.h"
                    NPLUS1_HAVE_CURSOR_OPERATOR_KINDS)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
unset(CMAKE_REQUIRED_QUIET)

# The compile definitions the front end gets from these checks.
set(NPLUS1_LIBCLANG_DEFINITIONS "NPLUS1_LIBCLANG_VERSION=\"${NPLUS1_LIBCLANG_VERSION}\"")
if(NPLUS1_HAVE_CURSOR_OPERATOR_KINDS)
  list(APPEND NPLUS1_LIBCLANG_DEFINITIONS NPLUS1_HAVE_CURSOR_OPERATOR_KINDS=1)
endif()

# ${out} = TRUE when the dynamic linker finds LIBCLANG_LIBRARY's soname in a default
# library directory (then the installed tool needs no run path to it), else FALSE.
function(nplus1_libclang_on_default_path out)
  set(found FALSE)
  find_program(NPLUS1_READELF NAMES readelf ${CMAKE_READELF})
  mark_as_advanced(NPLUS1_READELF)
  get_filename_component(real "${LIBCLANG_LIBRARY}" REALPATH)
  if(NPLUS1_READELF AND EXISTS "${real}")
    execute_process(COMMAND ${NPLUS1_READELF} -d "${real}" OUTPUT_VARIABLE dyn ERROR_QUIET)
    if(dyn MATCHES "Library soname: \\[([^]]+)\\]")
      set(soname "${CMAKE_MATCH_1}")
      foreach(dir "/lib/${CMAKE_LIBRARY_ARCHITECTURE}" "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}"
                  /lib64 /usr/lib64 /lib /usr/lib)
        if(EXISTS "${dir}/${soname}")
          get_filename_component(there "${dir}/${soname}" REALPATH)
          if(there STREQUAL real)
            set(found TRUE)
            break()
          endif()
        endif()
      endforeach()
    endif()
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
