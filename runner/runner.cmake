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
install(TARGETS nplus1gen-validate EXPORT nplus1genTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
