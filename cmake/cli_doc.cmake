# SPDX-License-Identifier: Apache-2.0
# The --help text (tool/cli/help.txt) is the one source of the CLI's option list:
# `nplus1gen --help` prints it, the man page is made from it, and docs/cli.md
# holds a copy between two marker lines.
#   cmake -DMODE=update -DHELP=tool/cli/help.txt -DDOC=docs/cli.md -P cli_doc.cmake
#     rewrites docs/cli.md's copy from help.txt
#   cmake -DMODE=check -DHELP=... -DDOC=... [-DTOOL=nplus1gen] [-DMAN=nplus1gen.1] -P cli_doc.cmake
#     fails when docs/cli.md's copy, `nplus1gen --help` or the man page say
#     something else than help.txt
set(begin_marker "<!-- BEGIN tool/cli/help.txt (cmake --build build --target update-cli-doc rewrites this block) -->")
set(end_marker "<!-- END tool/cli/help.txt -->")

file(READ "${HELP}" help)
file(READ "${DOC}" doc)
string(FIND "${doc}" "${begin_marker}\n" b)
string(FIND "${doc}" "${end_marker}" e)
if(b LESS 0 OR e LESS b)
  message(FATAL_ERROR "${DOC} lacks the marker lines around the --help text:\n${begin_marker}\n...\n${end_marker}")
endif()
string(LENGTH "${begin_marker}\n" blen)
math(EXPR start "${b} + ${blen}")
math(EXPR len "${e} - ${start}")
string(SUBSTRING "${doc}" ${start} ${len} block)
set(want "```text\n${help}```\n")

if(MODE STREQUAL "update")
  if(NOT block STREQUAL want)
    string(SUBSTRING "${doc}" 0 ${start} head)
    string(SUBSTRING "${doc}" ${e} -1 tail)
    file(WRITE "${DOC}" "${head}${want}${tail}")
    message(STATUS "updated ${DOC}")
  endif()
  return()
endif()

set(failed "")
if(NOT block STREQUAL want)
  list(APPEND failed "docs/cli.md's copy of the --help text differs from tool/cli/help.txt (run: cmake --build <build> --target update-cli-doc)")
endif()
if(TOOL)
  execute_process(COMMAND "${TOOL}" --help OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out STREQUAL help)
    list(APPEND failed "`nplus1gen --help` (exit ${rc}) does not print tool/cli/help.txt as it is")
  endif()
endif()
if(MAN)
  file(READ "${MAN}" man)
  string(REGEX MATCHALL "--[a-z][a-z-]*" options "${help}")
  list(REMOVE_DUPLICATES options)
  foreach(o IN LISTS options)
    string(REPLACE "-" "\\-" roff "${o}")
    string(FIND "${man}" "\\fB${roff}\\fR" at)
    if(at LESS 0)
      list(APPEND failed "the man page lacks the option ${o} of tool/cli/help.txt")
    endif()
  endforeach()
  list(LENGTH options n)
  message(STATUS "the man page has all ${n} long options of tool/cli/help.txt")
endif()
if(failed)
  string(REPLACE ";" "\n  " failed "${failed}")
  message(FATAL_ERROR "the CLI texts drifted apart:\n  ${failed}")
endif()
message(STATUS "--help, the man page and docs/cli.md say the same")
