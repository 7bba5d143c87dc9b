# SPDX-License-Identifier: Apache-2.0
# Generates the driver of INPUT and compiles CONSUMER, a program that uses it,
# with -Wall -Wextra -Werror (C11), and the header alone as C++ when CXX is set.
#
# cmake -DGEN=nplus1gen -DCC=cc [-DCXX=c++] -DRUNTIME=runtime/ -DOPENCL_INC=...
#       -DOUT=dir -DINPUT=file.cl -DCONSUMER=file.c -P compile_consumer.cmake
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND "${GEN}" "${INPUT}" -o "${OUT}" -q RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nplus1gen ${INPUT} failed (${rc}):\n${err}")
endif()
execute_process(COMMAND "${CC}" -std=c11 -Wall -Wextra -Werror -fsyntax-only "-I${RUNTIME}"
                        "-I${OPENCL_INC}" "-I${OUT}" "${CONSUMER}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CONSUMER} does not compile against the generated driver:\n${err}")
endif()
if(CXX)
  file(GLOB headers "${OUT}/*_nplus1.h")
  foreach(h IN LISTS headers)
    execute_process(COMMAND "${CXX}" -std=c++11 -Wall -Wextra -Werror -fsyntax-only -x c++
                            "-I${OPENCL_INC}" "${h}"
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${h} does not compile as C++:\n${err}")
    endif()
  endforeach()
endif()
message(STATUS "ok: ${CONSUMER} against the driver of ${INPUT}")
