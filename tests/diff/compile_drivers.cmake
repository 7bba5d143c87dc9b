# SPDX-License-Identifier: Apache-2.0
# Generates the host driver of each kernel file given and compiles it with
# -std=c11 -pedantic -Wall -Wextra -Werror: the driver must build warning-free whatever the
# kernel's argument types (vectors, enums, many scalar kinds) and strategy.
#
# cmake -DGEN=nplus1gen -DCC=cc -DRUNTIME=runtime/ -DOPENCL_INC=... -DOUT=dir
#       -DCASES="file.cl|opt opt!file2.cl|opt" -P compile_drivers.cmake
string(REPLACE "!" ";" CASES "${CASES}")
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(n 0)
foreach(case IN LISTS CASES)
  string(REPLACE "|" ";" parts "${case}")
  list(POP_FRONT parts input)
  separate_arguments(opts UNIX_COMMAND "${parts}")
  list(JOIN opts " " shown)
  math(EXPR n "${n} + 1")
  set(dir "${OUT}/${n}")
  execute_process(COMMAND "${GEN}" "${input}" -o "${dir}" -q ${opts}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nplus1gen ${input} ${shown} failed (${rc}):\n${err}")
  endif()
  file(GLOB drivers "${dir}/*_nplus1.c")
  if(NOT drivers)
    message(FATAL_ERROR "nplus1gen ${input} ${shown} wrote no driver")
  endif()
  foreach(c IN LISTS drivers)
    execute_process(COMMAND "${CC}" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only
                            "-I${RUNTIME}" "-I${OPENCL_INC}" "-I${dir}" "${c}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the driver of ${input} (${shown}) does not compile:\n${err}")
    endif()
    message(STATUS "ok: ${input} ${shown}")
  endforeach()
endforeach()
