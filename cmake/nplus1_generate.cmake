# SPDX-License-Identifier: Apache-2.0
# nplus1_generate(<target> <file.cl>...
#                 [OUTPUT_DIR dir] [KERNELS k...] [OPTIONS opt...]
#                 [STRATEGY s] [DISPATCH d] [TEMPLATE_DIR dir] [PROFILE p.json]
#                 [STATIC_RUNTIME] [SKIP_REFUSED])
#
# Runs nplus1gen on each .cl file at build time and adds the generated host
# driver to <target>: the driver sources are compiled into it, the output
# directory is put on its include path, and it links nplus1gen::runtime
# (nplus1gen::runtime_static with STATIC_RUNTIME) and OpenCL.
#
# Each <file.cl> gives OUTPUT_DIR/<stem>.nplus1.cl, <stem>_nplus1.h,
# <stem>_nplus1.c and <stem>.nplus1.json, <stem> being the file name without
# .cl (as a C identifier). OUTPUT_DIR defaults to
# ${CMAKE_CURRENT_BINARY_DIR}/nplus1gen; a relative one is taken from
# ${CMAKE_CURRENT_BINARY_DIR}. KERNELS, STRATEGY and DISPATCH become -k,
# --strategy and --dispatch (the tool checks the values). OPTIONS go to the
# tool as they are (-D, -I, --cl-std, --wg, --split ...), except that a
# relative -I directory is taken from ${CMAKE_CURRENT_SOURCE_DIR}.
# TEMPLATE_DIR makes the tool use the templates there instead of its
# built-in ones (-T). PROFILE (one .cl file only) gives the tool a divergence
# profile written by `nplus1gen FILE --profile --profile-json p.json`
# (--profile-in): its predicted gains become the measured choice's prior.
# SKIP_REFUSED (--skip-refused): a kernel the tool refuses does not fail the
# build; the driver has the kernels that split, a note names each kernel left
# out with its rule, and the manifest lists them under "skipped" (a kernel
# whose every candidate is `never` is left out too unless KERNELS names it).
#
# Reruns when the .cl file, any header it includes (through the tool's
# depfile; Ninja, or Makefiles with CMake >= 3.20), the tool, the PROFILE, or
# the templates (NPLUS1GEN_TEMPLATE_FILES, or TEMPLATE_DIR's) change.
# See docs/cmake.md.
#
# The generated drivers are C. In a project without C (project(app CXX)) the
# file enables it when it is included (find_package(nplus1gen) at directory
# scope, where enable_language() must be called) and a C compiler is found;
# nplus1_generate() stops with what to do otherwise.
if(NOT CMAKE_C_COMPILER_LOADED)
  include(CheckLanguage)
  check_language(C)
  if(CMAKE_C_COMPILER)
    message(STATUS "nplus1gen: enabling C for the generated drivers (${CMAKE_C_COMPILER})")
    enable_language(C)
  endif()
endif()

include_guard(GLOBAL)

# The function records the policies in effect here: transform depfiles the
# documented way under Ninja (the tool writes absolute paths either way).
cmake_policy(PUSH)
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()

# Fails the configure step, naming why no nplus1gen tool target is there.
function(_nplus1_generate_no_tool)
  if(DEFINED nplus1gen_tool_FOUND AND NOT nplus1gen_tool_FOUND)
    set(why "the nplus1gen package found in '${nplus1gen_DIR}' was built without the "
            "tool (-DNPLUS1_BUILD_TOOL=OFF) and has the runtime only. Install a package "
            "built with the tool, or point nplus1gen::nplus1gen at a tool built elsewhere:\n"
            "  add_executable(nplus1gen::nplus1gen IMPORTED)\n"
            "  set_target_properties(nplus1gen::nplus1gen PROPERTIES IMPORTED_LOCATION /path/to/nplus1gen)")
  else()
    set(why "there is no nplus1gen::nplus1gen tool target: call "
            "find_package(nplus1gen CONFIG REQUIRED) first")
  endif()
  string(CONCAT why ${why})
  message(FATAL_ERROR "nplus1_generate: ${why}")
endfunction()

# Sets ${var} to OPTIONS with every relative -I directory made absolute.
function(_nplus1_generate_options var)
  set(out "")
  set(next_is_dir FALSE)
  foreach(o IN LISTS ARGN)
    if(next_is_dir)
      get_filename_component(o "${o}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(next_is_dir FALSE)
    elseif(o STREQUAL "-I")
      set(next_is_dir TRUE)
    elseif(o MATCHES "^-I(.+)$")
      get_filename_component(dir "${CMAKE_MATCH_1}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(o "-I${dir}")
    endif()
    list(APPEND out "${o}")
  endforeach()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

function(nplus1_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 N "STATIC_RUNTIME;SKIP_REFUSED"
                        "OUTPUT_DIR;STRATEGY;DISPATCH;TEMPLATE_DIR;PROFILE" "KERNELS;OPTIONS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "nplus1_generate: '${target}' is not a target (add_executable() or "
                        "add_library() it first)")
  endif()
  if(NOT N_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nplus1_generate(${target}): no .cl files given")
  endif()
  if(NOT TARGET nplus1gen::nplus1gen)
    _nplus1_generate_no_tool()
  endif()
  if(NOT CMAKE_C_COMPILER_LOADED)
    message(FATAL_ERROR "nplus1_generate(${target}): the generated drivers are C, and C is "
                        "not enabled here (no C compiler was found when find_package(nplus1gen) "
                        "ran). Install one (or name it with CC / CMAKE_C_COMPILER), or enable C "
                        "yourself before find_package(nplus1gen): project(<name> C CXX) or "
                        "enable_language(C)")
  endif()

  set(outdir "${N_OUTPUT_DIR}")
  if(NOT outdir)
    set(outdir "${CMAKE_CURRENT_BINARY_DIR}/nplus1gen")
  endif()
  get_filename_component(outdir "${outdir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${outdir}")

  set(extra "")
  foreach(k IN LISTS N_KERNELS)
    list(APPEND extra -k ${k})
  endforeach()
  if(N_STRATEGY)
    list(APPEND extra --strategy ${N_STRATEGY})
  endif()
  if(N_DISPATCH)
    list(APPEND extra --dispatch ${N_DISPATCH})
  endif()
  if(N_SKIP_REFUSED)
    list(APPEND extra --skip-refused)
  endif()
  set(templates ${NPLUS1GEN_TEMPLATE_FILES})
  if(N_TEMPLATE_DIR)
    get_filename_component(tdir "${N_TEMPLATE_DIR}" ABSOLUTE)
    list(APPEND extra -T "${tdir}")
    file(GLOB templates "${tdir}/*.tmpl")
  endif()
  _nplus1_generate_options(options ${N_OPTIONS})
  list(APPEND extra ${options})
  set(profile "")
  if(N_PROFILE)
    list(LENGTH N_UNPARSED_ARGUMENTS ncl)
    if(ncl GREATER 1)
      message(FATAL_ERROR "nplus1_generate(${target}): PROFILE is the profile of one .cl file; "
                          "call nplus1_generate once per file to give each its PROFILE")
    endif()
    get_filename_component(profile "${N_PROFILE}" ABSOLUTE)
    list(APPEND extra --profile-in "${profile}")
  endif()

  get_property(stems TARGET ${target} PROPERTY NPLUS1GEN_STEMS)
  foreach(cl IN LISTS N_UNPARSED_ARGUMENTS)
    get_filename_component(abs "${cl}" ABSOLUTE)
    get_filename_component(stem "${cl}" NAME)
    string(REGEX REPLACE "\\.cl$" "" stem "${stem}")
    string(MAKE_C_IDENTIFIER "${stem}" stem)
    if("${outdir}/${stem}" IN_LIST stems)
      message(FATAL_ERROR "nplus1_generate(${target}): two inputs give the same stem "
                          "'${stem}' in '${outdir}' (${cl}); use another OUTPUT_DIR for one")
    endif()
    list(APPEND stems "${outdir}/${stem}")
    set(outs "${outdir}/${stem}.nplus1.cl" "${outdir}/${stem}_nplus1.h"
             "${outdir}/${stem}_nplus1.c" "${outdir}/${stem}.nplus1.json")
    set(depfile "${outdir}/${stem}.d")
    set(depfile_args "")
    if(CMAKE_GENERATOR MATCHES "Ninja" OR
       (CMAKE_GENERATOR MATCHES "Makefiles" AND CMAKE_VERSION VERSION_GREATER_EQUAL 3.20) OR
       CMAKE_VERSION VERSION_GREATER_EQUAL 3.21)
      set(depfile_args DEPFILE "${depfile}")
    endif()
    add_custom_command(
      OUTPUT ${outs}
      COMMAND nplus1gen::nplus1gen "${abs}" -o "${outdir}" --stem "${stem}" -q
              --depfile "${depfile}" ${extra}
      DEPENDS "${abs}" nplus1gen::nplus1gen ${templates} ${profile}
      ${depfile_args}
      COMMENT "nplus1gen: ${cl} -> ${stem}_nplus1.c"
      VERBATIM)
    set_source_files_properties(${outs} PROPERTIES GENERATED TRUE)
    target_sources(${target} PRIVATE "${outdir}/${stem}_nplus1.c" "${outdir}/${stem}_nplus1.h")
  endforeach()
  set_property(TARGET ${target} PROPERTY NPLUS1GEN_STEMS "${stems}")

  target_include_directories(${target} PRIVATE "${outdir}")
  if(N_STATIC_RUNTIME)
    target_link_libraries(${target} PRIVATE nplus1gen::runtime_static OpenCL::OpenCL)
  else()
    target_link_libraries(${target} PRIVATE nplus1gen::runtime OpenCL::OpenCL)
  endif()
endfunction()

cmake_policy(POP)
