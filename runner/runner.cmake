# SPDX-License-Identifier: Apache-2.0
# runner/: nplus1gen-validate, the device side of --validate: no libclang (POCL loads
# its own LLVM), so the runtime-only build (-DNPLUS1_BUILD_TOOL=OFF) builds it
# too and runs jobs emitted elsewhere (nplus1gen --emit-job). Installed and
# exported as nplus1gen::nplus1gen-validate. It links the runtime and common/
# (the job format, util, the profile's replay and report), never tool/.
add_executable(nplus1gen-validate ${PROJECT_SOURCE_DIR}/runner/runner.c
               ${PROJECT_SOURCE_DIR}/runner/inputs.c ${PROJECT_SOURCE_DIR}/runner/verdict.c
               ${PROJECT_SOURCE_DIR}/runner/oclgrind.c)
target_link_libraries(nplus1gen-validate PRIVATE nplus1rt_static nplus1common)
target_compile_definitions(nplus1gen-validate PRIVATE _POSIX_C_SOURCE=200809L)
# beside nplus1gen in the build tree (tool/), where the tool looks for its runner first
if(NPLUS1_BUILD_TOOL)
  set_target_properties(nplus1gen-validate PROPERTIES
                        RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tool)
endif()
install(TARGETS nplus1gen-validate EXPORT nplus1genTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
# its man page, gzip -9n as Debian policy wants (the same bytes each build)
set(NPLUS1_VALIDATE_MAN ${PROJECT_BINARY_DIR}/man/nplus1gen-validate.1)
configure_file(${PROJECT_SOURCE_DIR}/runner/nplus1gen-validate.1.in ${NPLUS1_VALIDATE_MAN} @ONLY)
add_custom_command(OUTPUT ${NPLUS1_VALIDATE_MAN}.gz
  COMMAND sh -c "gzip -9n -c \"$0\" >\"$1\"" ${NPLUS1_VALIDATE_MAN} ${NPLUS1_VALIDATE_MAN}.gz
  DEPENDS ${NPLUS1_VALIDATE_MAN} COMMENT "Compressing the man page nplus1gen-validate.1" VERBATIM)
add_custom_target(nplus1gen-validate-man ALL DEPENDS ${NPLUS1_VALIDATE_MAN}.gz)
add_dependencies(nplus1gen-validate nplus1gen-validate-man) # built with it, installed with it
install(FILES ${NPLUS1_VALIDATE_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tool)
