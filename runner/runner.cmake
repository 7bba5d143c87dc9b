# runner/: nplus1gen-validate, the device side of --validate: no libclang (POCL loads
# its own LLVM), so the runtime-only build (-DNPLUS1_BUILD_TOOL=OFF) builds it
# too and runs jobs emitted elsewhere (nplus1gen --emit-job). Installed and
# exported as nplus1gen::nplus1gen-validate.
#
# nplus1prof: the divergence profile's replay, job format and report
# (tool/profile.h), plain C with util.c; nplus1gen links it through
# nplus1front, and the runner prints a profile job's report with it.
if(NOT TARGET nplus1prof)
  add_library(nplus1prof STATIC ${PROJECT_SOURCE_DIR}/tool/util.c
              ${PROJECT_SOURCE_DIR}/tool/profile_replay.c ${PROJECT_SOURCE_DIR}/tool/profile_job.c
              ${PROJECT_SOURCE_DIR}/tool/profile_report.c
              ${PROJECT_SOURCE_DIR}/tool/profile_loop.c)
  target_include_directories(nplus1prof PUBLIC ${PROJECT_SOURCE_DIR}/tool)
  target_compile_definitions(nplus1prof PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(nplus1prof PUBLIC m)
endif()
# nplus1job: runner/job.c, the one reader and writer of job.desc; nplus1gen
# links it to write jobs (plain data in: no libclang, no OpenCL library, only
# nplus1rt.h's types), the runner to read them.
if(NOT TARGET nplus1job)
  add_library(nplus1job STATIC ${PROJECT_SOURCE_DIR}/runner/job.c)
  target_include_directories(nplus1job PUBLIC ${PROJECT_SOURCE_DIR}/runner
                             ${PROJECT_SOURCE_DIR}/runtime ${OpenCL_INCLUDE_DIRS})
  target_compile_definitions(nplus1job PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_libraries(nplus1job PUBLIC nplus1prof)
endif()
add_executable(nplus1gen-validate ${PROJECT_SOURCE_DIR}/runner/runner.c
               ${PROJECT_SOURCE_DIR}/runner/inputs.c ${PROJECT_SOURCE_DIR}/runner/verdict.c
               ${PROJECT_SOURCE_DIR}/runner/oclgrind.c)
target_link_libraries(nplus1gen-validate PRIVATE nplus1rt_static nplus1job)
target_compile_definitions(nplus1gen-validate PRIVATE _POSIX_C_SOURCE=200809L)
install(TARGETS nplus1gen-validate EXPORT nplus1genTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tool)
# its man page, gzip -9n as Debian policy wants (the same bytes each build)
set(NPLUS1_VALIDATE_MAN ${PROJECT_BINARY_DIR}/man/nplus1gen-validate.1)
configure_file(${PROJECT_SOURCE_DIR}/tool/nplus1gen-validate.1.in ${NPLUS1_VALIDATE_MAN} @ONLY)
add_custom_command(OUTPUT ${NPLUS1_VALIDATE_MAN}.gz
  COMMAND sh -c "gzip -9n -c \"$0\" >\"$1\"" ${NPLUS1_VALIDATE_MAN} ${NPLUS1_VALIDATE_MAN}.gz
  DEPENDS ${NPLUS1_VALIDATE_MAN} COMMENT "Compressing the man page nplus1gen-validate.1" VERBATIM)
add_custom_target(nplus1gen-validate-man ALL DEPENDS ${NPLUS1_VALIDATE_MAN}.gz)
add_dependencies(nplus1gen-validate nplus1gen-validate-man) # built with it, installed with it
install(FILES ${NPLUS1_VALIDATE_MAN}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT tool)
