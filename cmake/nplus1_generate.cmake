# nplus1_generate(<target> <file.cl>...
#                 [OUTPUT_DIR dir] [KERNELS k...] [OPTIONS opt...] [STRATEGY s] [DISPATCH d])
#
# Runs nplus1gen on each .cl file at build time and adds the generated host
# driver to <target>: the driver sources are compiled into it, the output
# directory is put on its include path, and it links nplus1gen::runtime.
# Reruns when the .cl file, any header it includes (through a depfile), the
# tool, or the templates change.
function(nplus1_generate target)
  cmake_parse_arguments(N "" "OUTPUT_DIR;STRATEGY;DISPATCH" "KERNELS;OPTIONS" ${ARGN})
  if(NOT N_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "nplus1_generate(${target}): no .cl files given")
  endif()
  if(NOT TARGET nplus1gen::nplus1gen)
    message(FATAL_ERROR "nplus1_generate: the nplus1gen::nplus1gen tool target is missing "
                        "(find_package(nplus1gen) first)")
  endif()
  set(outdir "${N_OUTPUT_DIR}")
  if(NOT outdir)
    set(outdir "${CMAKE_CURRENT_BINARY_DIR}/nplus1gen")
  endif()
  set(extra "")
  foreach(k ${N_KERNELS})
    list(APPEND extra -k ${k})
  endforeach()
  if(N_STRATEGY)
    list(APPEND extra --strategy ${N_STRATEGY})
  endif()
  if(N_DISPATCH)
    list(APPEND extra --dispatch ${N_DISPATCH})
  endif()
  list(APPEND extra ${N_OPTIONS})
  foreach(cl ${N_UNPARSED_ARGUMENTS})
    get_filename_component(abs "${cl}" ABSOLUTE)
    get_filename_component(stem "${cl}" NAME)
    string(REGEX REPLACE "\\.cl$" "" stem "${stem}")
    string(MAKE_C_IDENTIFIER "${stem}" stem)
    set(outs "${outdir}/${stem}.nplus1.cl" "${outdir}/${stem}_nplus1.h"
             "${outdir}/${stem}_nplus1.c" "${outdir}/${stem}.nplus1.json")
    set(depfile_args "")
    if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 OR CMAKE_GENERATOR MATCHES "Ninja")
      set(depfile_args DEPFILE "${outdir}/${stem}.d")
    endif()
    add_custom_command(
      OUTPUT ${outs}
      COMMAND nplus1gen::nplus1gen "${abs}" -o "${outdir}" --stem "${stem}" -q
              --depfile "${outdir}/${stem}.d" ${extra}
      DEPENDS "${abs}" nplus1gen::nplus1gen ${NPLUS1GEN_TEMPLATE_FILES}
      ${depfile_args}
      COMMENT "nplus1gen: ${cl} -> ${stem}_nplus1.c"
      VERBATIM)
    set_source_files_properties(${outs} PROPERTIES GENERATED TRUE)
    target_sources(${target} PRIVATE "${outdir}/${stem}_nplus1.c" "${outdir}/${stem}_nplus1.h")
  endforeach()
  target_include_directories(${target} PRIVATE "${outdir}")
  target_link_libraries(${target} PRIVATE nplus1gen::runtime)
endfunction()
