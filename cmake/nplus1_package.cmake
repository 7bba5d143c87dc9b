# The Debian package: `cpack -G DEB` (or plain `cpack`) in the build tree
# writes nplus1gen_<version>_<arch>.deb with everything `cmake --install`
# installs, under /usr: the tool and nplus1gen-validate, libnplus1rt (shared
# and static), nplus1rt.h, the templates, the CMake package, nplus1rt.pc and
# the man page. Depends names the Debian packages of the libclang and OpenCL
# files this build used (dpkg-query -S at configure time). See docs/cmake.md.
include_guard(GLOBAL)

# ${out} = the Debian package that owns FILE (after symlinks when REAL), or "".
function(_nplus1_deb_owner file real out)
  set(owner "")
  if(real)
    get_filename_component(file "${file}" REALPATH)
  endif()
  if(NPLUS1_DPKG_QUERY AND EXISTS "${file}")
    execute_process(COMMAND ${NPLUS1_DPKG_QUERY} -S "${file}" OUTPUT_VARIABLE line
                    ERROR_QUIET RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND line MATCHES "^([a-z0-9.+-]+)(:[a-z0-9]+)?: ")
      set(owner "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out} "${owner}" PARENT_SCOPE)
endfunction()

# The Depends line: the packages of the libclang and OpenCL this build used.
function(_nplus1_deb_depends out)
  set(deps libc6)
  if(NPLUS1_BUILD_TOOL AND LIBCLANG_LIBRARY)
    _nplus1_deb_owner("${LIBCLANG_LIBRARY}" TRUE pkg)
    if(NOT pkg AND NPLUS1_LIBCLANG_VERSION MATCHES "^([0-9]+)")
      set(pkg "libclang1-${CMAKE_MATCH_1}")
    endif()
    list(APPEND deps ${pkg})
  endif()
  # the ICD loader (what the runtime loads), its development link and .pc
  # file (what consumers link with), the headers nplus1rt.h includes
  _nplus1_deb_owner("${OpenCL_LIBRARY}" TRUE loader)
  _nplus1_deb_owner("${OpenCL_LIBRARY}" FALSE dev)
  _nplus1_deb_owner("${OpenCL_INCLUDE_DIR}/CL/cl.h" TRUE headers)
  if(NOT loader)
    set(loader "ocl-icd-libopencl1 | libopencl1")
  endif()
  list(APPEND deps ${loader} ${dev} ${headers})
  list(REMOVE_DUPLICATES deps)
  string(REPLACE ";" ", " deps "${deps}")
  set(${out} "${deps}" PARENT_SCOPE)
endfunction()

# /usr/share/doc/nplus1gen: copyright (machine-readable) and the Debian
# changelog, changelog.gz (a native package: the version has no Debian
# revision), gzip -9n (no name, no time stamp: the same bytes every build).
# The changelog's date is the configure time, or SOURCE_DATE_EPOCH when set.
function(_nplus1_deb_docs)
  set(dir ${PROJECT_BINARY_DIR}/package/doc)
  file(MAKE_DIRECTORY ${dir})
  string(TIMESTAMP NPLUS1_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/debian/changelog.in ${dir}/changelog @ONLY)
  find_program(NPLUS1_GZIP gzip)
  mark_as_advanced(NPLUS1_GZIP)
  if(NOT NPLUS1_GZIP)
    message(WARNING "gzip not found: the package has no changelog.gz")
    return()
  endif()
  execute_process(COMMAND ${NPLUS1_GZIP} -9n -c ${dir}/changelog
                  OUTPUT_FILE ${dir}/changelog.gz RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip -9n of ${dir}/changelog failed")
  endif()
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/debian/copyright ${dir}/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
endfunction()
_nplus1_deb_docs()

find_program(NPLUS1_DPKG_QUERY dpkg-query)
mark_as_advanced(NPLUS1_DPKG_QUERY)
_nplus1_deb_depends(NPLUS1_DEB_DEPENDS)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME nplus1gen)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR nplus1gen)
set(CPACK_PACKAGE_CONTACT "nplus1gen developers <nplus1gen@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "rewrites branchy OpenCL C kernels into the n+1 kernels pattern")
set(CPACK_PACKAGE_DESCRIPTION "\
nplus1gen rewrites a branchy OpenCL C kernel into a classifier and one
branch-free kernel per leaf of its condition tree, with a generated C host
driver that launches the set like the original kernel. Contains the tool,
nplus1gen-validate, the runtime libnplus1rt (shared and static) with its
header, pkg-config file and CMake package (find_package(nplus1gen),
nplus1_generate()), the templates and the man page.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# install with CMAKE_INSTALL_PREFIX=/usr into a DESTDIR, so nplus1rt.pc says /usr
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${NPLUS1_DEB_DEPENDS}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "pocl-opencl-icd | opencl-icd, pkgconf | pkg-config")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "cmake")
set(CPACK_STRIP_FILES ON)
# shlibs (for packages built against libnplus1rt.so.0) and the ldconfig
# trigger, as control files of our own: CPack's GENERATE_SHLIBS would add
# postinst/postrm scripts calling ldconfig, which Debian replaced by the trigger.
set(NPLUS1_DEB_CONTROL ${PROJECT_BINARY_DIR}/package/debian)
file(WRITE ${NPLUS1_DEB_CONTROL}/shlibs
     "libnplus1rt 0 nplus1gen (>= ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})\n")
file(WRITE ${NPLUS1_DEB_CONTROL}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${NPLUS1_DEB_CONTROL}/shlibs ${NPLUS1_DEB_CONTROL}/triggers)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
message(STATUS "cpack -G DEB: ${CPACK_PACKAGE_NAME} ${CPACK_PACKAGE_VERSION}, Depends: ${NPLUS1_DEB_DEPENDS}")
